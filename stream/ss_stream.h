// ss_stream.h: the stream scheduler on the softswitch (docs/stream.md
// "Mapping to Tinsel"). Each Tinsel thread that holds nodes runs one
// softswitch device, the partition: its state is the partition's
// stream_graph; its one input pin takes every stream message (data,
// credit, release); output pin k sends the messages of stream pin k
// (stream_pins) to the thread of its destination partition. Handlers:
// init and recv run the scheduler (recv first applies the message), rts
// asks to send on every pin with something pending, send packs one
// message. The same code runs in the firmware and in the host engine
// (pipeline_ss), which compiles the softswitch for the host.
#ifndef SS_STREAM_H
#define SS_STREAM_H

#include <stdint.h>
#include "softswitch.h"
#include "stream.h"

#define STREAM_SS_PINS 8u

// The graph last: its node functions (stream_graph.fns) are not in the image
// the host writes (STREAM_SS_WIRE_BYTES), the thread binds them.
typedef struct {
  uint32_t npins;
  stream_pin pins[STREAM_SS_PINS];
  uint32_t pad_;           // g at a multiple of 8 on the host too (its fns hold pointers)
  stream_graph g;
} stream_ss_state;

typedef struct {
  ss_thread_image hdr;
  ss_device dev;
  ss_out_pin pins[STREAM_SS_PINS];
  ss_out_edge edges[STREAM_SS_PINS];
  ss_in_group group;
  ss_in_edge in;
  uint32_t rts[2], ready[2];
  stream_ss_state state;
} stream_ss_image;

// The bytes of a thread image the host writes (all but the node functions).
#define STREAM_SS_WIRE_BYTES ((uint32_t)__builtin_offsetof(stream_ss_image, state.g) + STREAM_WIRE_BYTES)
_Static_assert(__builtin_offsetof(stream_ss_image, state.g) == 400, "stream_ss_image: one layout on the host and rv32");

// Complete partition g->me's thread image around its graph, already built
// in img->state.g (e.g. by pipeline_build): one device (none when the
// partition has no node), its pins to the threads part_addr[dest] (Tinsel
// thread ids). Returns 0, or non-zero when it needs more than STREAM_SS_PINS pins.
int stream_ss_build(stream_ss_image *img, const uint32_t *part_addr, uint32_t flags);
// On the thread, after the host wrote the image: set the functions of each
// of this partition's nodes from KINDS by its kind. Returns 0, or non-zero
// when a node's kind is out of range or has no function.
int stream_ss_bind(stream_ss_image *img, const stream_fns *kinds, uint32_t nkinds);

#endif
