// softswitch.h: the contract between the softswitch (the per-thread event
// loop that hosts many graph devices), the compiler back end that generates
// device-type tables and handlers, and the host side that writes each
// thread's image into DRAM. docs/softswitch.md describes the same layout
// in prose; change both together, and only compatibly (see
// /tmp/h/softswitch-changes.md for the log of changes).
//
// Every structure here is plain C with fixed-width fields, little-endian,
// naturally aligned and free of pointers: the host (64-bit) builds the
// thread image as a byte blob, and all references inside it are byte
// offsets from the image base, so the same layout works on rv32 firmware
// and in the native unit tests.
#ifndef SOFTSWITCH_H
#define SOFTSWITCH_H

#include <stdint.h>
#include "tinsel_config.h"

// ---------------------------------------------------------------- messages

// Every message starts with this 8-byte header; the payload follows.
// `key` is first because the programmable router's MRM record overwrites
// the low half-word of the payload with its local key (tinsel.md §3.3).
typedef struct {
  uint16_t key;   // index into the receiving thread's in-groups
  uint8_t  pin;   // source output pin (for the host and for debugging)
  uint8_t  flags; // reserved, 0
  uint32_t src;   // source device: (local index << 16) | (thread id & 0xffff)
} ss_msg_header;

#define SS_HEADER_BYTES  8
#define SS_MAX_PAYLOAD   (TinselBytesPerMsg - SS_HEADER_BYTES) // 56 B
#define SS_NO_KEY        0xffffu  // "no local delivery" in ss_out_pin

// Source address of a device in ss_msg_header.src.
#define SS_SRC(dev, thread) (((uint32_t)(dev) << 16) | ((thread) & 0xffffu))
#define SS_SRC_DEV(src)     ((src) >> 16)
#define SS_SRC_THREAD(src)  ((src) & 0xffffu)

// ------------------------------------------------------- system messages
// Header keys at or above SS_SYS_KEY_BASE are not in-groups: the
// softswitch handles them itself (version 2 images). The begin of an
// invocation is NOT one of them: the host reserves in-group key k on every
// thread for invocation k's begin, whose in-group is every device of the
// thread involved in k on its begin pin, so one message per thread (one
// multicast per mailbox) runs every begin handler there.
//
// A device's end does not go on the network: its out pin has local_key
// SS_END_PIN_KEY(k), and the message folds into the thread's tree node for
// k (ss_tree.h); when the node has its own devices' ends and its children's
// it sends one SS_KEY_END up (to ss_inv_node.up: the parent thread or the
// host at the root).
//
// Requests from the host: at most one outstanding per thread (the host
// waits for the reply before the next request to that thread; STORE has
// no reply, and host->thread order is kept, so a CYCLES after STOREs tells
// the host they are done). Replies go to the host with the request's key,
// src = the thread id. A bad request (offset or count out of range) is
// counted in stats.errors and answered with count 0.
#define SS_SYS_KEY_BASE  0xff00u
#define SS_KEY_END       0xff00u  // thread -> parent or host; pin = invocation k, src = devices
                                  // it stands for, payload = the folded end (ss_inv_node.end_bytes)
#define SS_KEY_LOAD      0xff01u  // host -> thread: ss_sys_mem {off, count}; reply: the words
#define SS_KEY_STORE     0xff02u  // host -> thread: ss_sys_mem {off, count, words}; no reply
#define SS_KEY_CYCLES    0xff03u  // host -> thread: snapshot the cycle counter into the image's cycles[];
                                  // reply: as a LOAD of {SS_CYCLES_OFF, 2}: ss_sys_mem {112, 2, {lo, hi}}
#define SS_KEY_STATS     0xff04u  // host -> thread; reply: as a LOAD of {SS_STATS_OFF, 8} (ss_stats)
#define SS_KEY_EXIT      0xff05u  // host -> thread; reply: as STATS, then ss_run returns (main returns:
                                  // thread 0 re-enters the boot loader, the others stop)
#define SS_END_PIN_BASE  0xfe00u  // out pin local_key SS_END_PIN_BASE + k: the end of invocation k
#define SS_END_PIN_KEY(k) ((uint16_t)(SS_END_PIN_BASE + (k)))
#define SS_MAX_INVOCATIONS 256u   // k fits the header's pin byte and the end-pin key range
#define SS_MAX_ENDS_WAITING 8u    // fired tree nodes waiting for the send slot (one at a time when the host drives)
#define SS_MAX_HELD_BEGINS 4u     // begins a thread holds while its devices finish earlier invocations:
                                  // the host streams at most this many invocations ahead (one more runs)
#define SS_CYCLES_OFF    112u     // offset of ss_thread_image.cycles
#define SS_STATS_OFF     64u      // offset of ss_thread_image.stats

#define SS_SYS_MEM_WORDS 12u      // words per LOAD/STORE message
typedef struct {
  uint32_t off;           // byte offset from the image base, 4-aligned
  uint32_t count;         // words, <= SS_SYS_MEM_WORDS; off + 4 * count <= image_bytes
  uint32_t words[SS_SYS_MEM_WORDS];
} ss_sys_mem;             // 56 B: the whole payload

// ------------------------------------------------------- device-type table
// Generated by the compiler, one entry per device type, linked into the
// firmware image. Handlers get graph properties, the device's properties
// (read-only) and its state; NULL handlers mean "does nothing".

// OnInit: runs once per device before any other handler.
typedef void (*ss_init_fn)(const void *graph_props, const void *props, void *state);
// ReadyToSend: bit i set = output pin i wants to send (lowest bit first).
// Must be pure. The softswitch calls it after every handler of the device.
typedef uint32_t (*ss_rts_fn)(const void *graph_props, const void *props, const void *state);
// OnSend for one output pin: fill `payload` (out_bytes[pin] bytes);
// return non-zero to send it, 0 to cancel (graph_schema's *doSend = false).
typedef int (*ss_send_fn)(const void *graph_props, const void *props, void *state, void *payload);
// OnReceive for one input pin. A device cannot refuse a message, and
// messages from different sources arrive in any order.
typedef void (*ss_recv_fn)(const void *graph_props, const void *props, void *state,
                           const void *edge_props, const void *payload);
// OnHardwareIdle: runs on every device when all threads are idle and no
// message is in flight. Return non-zero if the device is still active
// (the thread then votes "not done" in the next idle barrier).
typedef int (*ss_idle_fn)(const void *graph_props, const void *props, void *state);
// A handler and ReadyToSend in one call (optional; op2c generates them):
// step[p] for input pin p runs its OnReceive, step[num_in_pins + p] output
// pin p's OnSend; then each returns the device's new ready word from RTS,
// its word before, with SS_STEP_CANCELLED set if the OnSend cancelled its
// message. The softswitch then makes one call per event, not two (and
// spills its registers once), and a handler re-evaluates only the bits
// its own invocation can change. A type with step has num_out_pins < 32.
typedef uint32_t (*ss_step_fn)(const void *graph_props, const void *props, void *state, const void *edge_props,
                               void *payload, uint32_t rts);
#define SS_STEP_CANCELLED 0x80000000u

typedef struct {
  uint8_t num_in_pins;
  uint8_t num_out_pins;        // at most 32 (one RTS bit each)
  uint16_t reserved;
  ss_init_fn init;             // may be NULL
  ss_rts_fn rts;               // may be NULL: the device never sends
  ss_idle_fn idle;             // may be NULL
  const ss_send_fn *send;      // [num_out_pins]
  const uint8_t *out_bytes;    // [num_out_pins] payload bytes, <= SS_MAX_PAYLOAD
  const ss_recv_fn *recv;      // [num_in_pins]
  const ss_step_fn *step;      // [num_in_pins + num_out_pins], or NULL: recv or send, then rts
                               // (the entry is 8 words, so indexing it is a shift)
} ss_dev_type;

// Provided by the generated code of each image.
extern const ss_dev_type ss_dev_types[];
extern const uint32_t ss_num_dev_types;

// ---------------------------------------------------------- thread image
// Written by the host at the base of the thread's DRAM partition
// (tinselHeapBase()); the stack grows down from the partition's top, so
// an image must leave SS_STACK_RESERVE bytes free at the top.

#define SS_MAGIC         0x31575353u  // "SSW1" little-endian
#define SS_VERSION       2u
#define SS_STACK_RESERVE 65536u

// Image flags.
#define SS_FLAG_EXIT_ON_IDLE 1u  // return when every thread votes done
#define SS_FLAG_STATS_UART   2u  // print the statistics to the debug link on exit
#define SS_FLAG_HOST_DRIVEN  4u  // never vote in the idle barrier: wait for messages (OP2: the host drives)
#define SS_FLAG_EXTRA_SLOT   8u  // the host reserved the extra send slots: each thread's ss_hot is there

// One per device, indexed by the thread-local device index (0..num_devices-1).
typedef struct {
  uint16_t type;          // index into ss_dev_types
  uint16_t reserved;
  uint32_t state_off;     // device state (RW, sizeof the type's state)
  uint32_t props_off;     // device properties (RO); 0 if the type has none
  uint32_t out_pin_base;  // index of this device's pin 0 in out_pins
} ss_device;              // 16 B

// One per (device, output pin): where a sent message goes.
typedef struct {
  uint16_t local_key;     // in-group of receivers on this thread, or SS_NO_KEY
  uint16_t num_edges;     // network destinations in out_edges
  uint32_t first_edge;    // index of the first in out_edges
} ss_out_pin;             // 8 B

// One network message: a mailbox and the thread mask within it (hardware
// multicast), or a routing key (mbox = TinselMailboxRoutingKey, mask_lo =
// the key, mask_hi = 0), or the host (mbox = TinselHostId >>
// TinselLogThreadsPerMailbox, mask_lo = 1).
typedef struct {
  uint32_t mbox;          // destination mailbox net address (SendDest)
  uint32_t mask_hi;       // threads 32..63 of the mailbox
  uint32_t mask_lo;       // threads 0..31, or the routing key
  uint16_t key;           // header key: the in-group at every receiving thread
  uint16_t reserved;
} ss_out_edge;            // 16 B

// Indexed by key: the receivers on this thread of one (device, pin)'s
// messages, i.e. in_edges[first .. first+count).
typedef struct {
  uint32_t first;
  uint32_t count;
} ss_in_group;            // 8 B

typedef struct {
  uint16_t dev;           // receiving thread-local device index
  uint8_t  pin;           // its input pin
  uint8_t  reserved;
  uint32_t edge_props_off;// edge properties, 0 if none
} ss_in_edge;             // 8 B

// Per invocation k and thread (image table inv_off, num_invocations
// entries): the thread's node of k's tree of threads. own == 0 and
// children == 0: the thread is not involved in k.
typedef struct {
  ss_out_edge up;         // where the node's SS_KEY_END goes: the parent thread's
                          // mailbox with its one mask bit, or the host (mbox =
                          // host_mbox, mask_lo = 1); key SS_KEY_END
  uint16_t own;           // involved devices on this thread
  uint16_t children;      // child threads in the tree
  uint16_t end_bytes;     // payload bytes of k's end message (<= SS_MAX_PAYLOAD)
  uint16_t begin_bytes;   // payload bytes of k's begin (what a held begin keeps); 0: unknown, all
} ss_inv_node;            // 24 B

// Per-thread statistics, kept in the image so the host can read them back.
typedef struct {
  uint32_t sent_local;    // messages delivered without the network (one per send)
  uint32_t sent_remote;   // network messages sent (one per ss_out_edge)
  uint32_t recv_local;    // receivers those local messages reached
  uint32_t recv_remote;   // network messages received
  uint32_t handler_calls; // init + send + recv + idle handlers run
  uint32_t idle_cycles;   // cycles spent waiting (WaitUntil and tinselIdle)
  uint32_t idle_barriers; // tinselIdle calls that returned idle
  uint32_t errors;        // bad keys or device indices seen (host bugs)
} ss_stats;               // 32 B

typedef struct {
  uint32_t magic;         // SS_MAGIC
  uint32_t version;       // SS_VERSION
  uint32_t flags;         // SS_FLAG_*
  uint32_t image_bytes;   // the whole image, for bounds checks
  uint32_t num_devices;
  uint32_t num_in_groups; // valid keys are 0..num_in_groups-1
  uint32_t devices_off;   // ss_device[num_devices]
  uint32_t out_pins_off;  // ss_out_pin[]
  uint32_t out_edges_off; // ss_out_edge[]
  uint32_t in_groups_off; // ss_in_group[num_in_groups]
  uint32_t in_edges_off;  // ss_in_edge[]
  uint32_t graph_props_off; // graph properties, 0 if none
  uint32_t rts_off;       // scratch for the softswitch: uint32_t[num_devices]
  uint32_t ready_off;     // scratch: uint32_t[(num_devices + 31) / 32]
  uint32_t reserved[2];
  ss_stats stats;         // written by the softswitch
  // Version 2: invocations (OP2). num_invocations 0: no tree nodes, no end pins.
  uint32_t inv_off;       // ss_inv_node[num_invocations], 0 if none
  uint32_t num_invocations; // <= SS_MAX_INVOCATIONS, and <= ss_num_invocations of the code
  uint32_t tree_off;      // scratch: SS_TREE_BYTES(num_invocations) (ss_tree_node, ss_tree.h)
  uint32_t host_mbox;     // mailbox net address of the host, for replies (mask_lo = 1)
  uint32_t cycles[2];     // written at each SS_KEY_CYCLES: tinselCycleCount, tinselCycleCountU
  uint32_t reserved2[2];
} ss_thread_image;        // 128 B

// Bytes of scratch the host must reserve for rts_off and ready_off.
#define SS_RTS_BYTES(n)   ((uint32_t)(n) * 4u)
#define SS_READY_BYTES(n) ((((uint32_t)(n) + 31u) / 32u) * 4u)
#define SS_TREE_NODE_BYTES 72u // sizeof(ss_tree_node), checked in ss_tree.h
#define SS_TREE_BYTES(n)  ((uint32_t)(n) * SS_TREE_NODE_BYTES)

_Static_assert(sizeof(ss_msg_header) == SS_HEADER_BYTES, "header");
_Static_assert(sizeof(ss_dev_type) == 8 * sizeof(void *), "ss_dev_type: a power of two");
_Static_assert(sizeof(ss_device) == 16, "ss_device");
_Static_assert(sizeof(ss_out_pin) == 8, "ss_out_pin");
_Static_assert(sizeof(ss_out_edge) == 16, "ss_out_edge");
_Static_assert(sizeof(ss_in_group) == 8 && sizeof(ss_in_edge) == 8, "in tables");
_Static_assert(sizeof(ss_thread_image) == 128, "ss_thread_image");
_Static_assert(sizeof(ss_inv_node) == 24 && sizeof(ss_sys_mem) == SS_MAX_PAYLOAD, "system tables");
_Static_assert(__builtin_offsetof(ss_thread_image, stats) == SS_STATS_OFF, "stats at offset 64");
_Static_assert(__builtin_offsetof(ss_thread_image, cycles) == SS_CYCLES_OFF, "cycles at offset 112");

// ------------------------------------------------------- softswitch API

// The softswitch's per-thread working state (on the thread's stack; DRAM
// globals are shared by all threads of a DRAM, so there are none). What
// every event reads is in ss_hot, 64 bytes on Tinsel: with
// SS_FLAG_EXTRA_SLOT (the host reserved each thread's extra send slot,
// DebugLink QueryIn config bit 4) and a softswitch built with SS_HOT_SLOT
// (softswitch.c; op2c's images) it lives in that slot of the mailbox's
// scratchpad, whose port the data cache's loads and stores do not queue
// for (a load or store below 0x10000 goes to the mailbox); else in
// ss_thread.hot. The rest stays in ss_thread.
struct ss_thread;
typedef struct {
  ss_thread_image *img;    // also the base of the image's offsets
  ss_device *devs;
  ss_out_pin *out_pins;
  ss_out_edge *out_edges;
  ss_in_group *in_groups;
  ss_in_edge *in_edges;
  uint32_t *rts;           // per-device ReadyToSend masks
  uint32_t *ready;         // bit per device: rts != 0
  const void *graph_props;
  uint32_t nends;          // invocations in c->ends: fired tree nodes whose end is not sent yet
  uint32_t reply_key;      // a reply to the host waiting for the send slot, or 0
  struct ss_thread *c;     // the rest
  uint32_t cursor;         // round robin: where the next search for a sender starts
  uint32_t edge;           // next out_edges entry of the message being sent
  uint32_t edges_left;     // entries still to send
  uint32_t local_key;      // a send's in-group on this thread still to deliver, or SS_NO_KEY
} ss_hot;
#ifdef __riscv
_Static_assert(sizeof(ss_hot) == TinselBytesPerMsg, "ss_hot fills one message slot");
#endif

typedef struct ss_thread {
  ss_hot hot;              // first: softswitch.c's COLD() relies on it
  ss_hot *h;               // where the hot state is: &hot, or the extra send slot
  uint32_t len;            // SendLen last written
  int active;              // an OnHardwareIdle handler said "still active"
  ss_inv_node *inv;        // version 2: per invocation, this thread's tree node (ss_tree.h)
  void *tree;              // ss_tree_node[num_invocations]
  uint8_t ends[SS_MAX_ENDS_WAITING]; // invocations whose tree node fired, end not sent yet
  uint32_t reply[2];       // its off and count (ss_sys_mem), then count words from reply_from
  const uint32_t *reply_from;
  ss_out_edge host;        // the host: host_mbox, mask_lo 1
  uint32_t local_buf[TinselBytesPerMsg / 4]; // messages that stay on this thread
  const void *local_msg;   // the payload of local_key (local_buf, or the send slot when it also goes out)
  // Streamed invocations (issue 18): the host sends begins ahead. A begin
  // waits here while this thread's devices are still in an earlier
  // invocation (own_left of its ends to come), and runs when they are done,
  // in the order the begins came (host-to-thread order is kept).
  uint32_t own_left;       // own devices that have not ended the invocation begun last
  uint32_t held_head, nheld; // held begins: held[(held_head + i) % SS_MAX_HELD_BEGINS]
  uint32_t held[SS_MAX_HELD_BEGINS][TinselBytesPerMsg / 4];
} ss_thread;

// Outcomes of ss_poll.
enum { SS_BUSY = 0, SS_WAITED = 1, SS_DONE = 2 };

// Check the image header and run every device's OnInit; returns 0, or
// non-zero if the image is malformed (counted in stats.errors).
int ss_init(ss_thread *t, ss_thread_image *img);
// One step of the event loop: drain the mailbox, then send at most one
// network message or start one device's send, else wait or vote idle.
int ss_poll(ss_thread *t);
// ss_init, then ss_poll until SS_DONE (with SS_FLAG_EXIT_ON_IDLE, or after SS_KEY_EXIT).
// Returns 0 when done, non-zero for a malformed image.
int ss_run(ss_thread *t, ss_thread_image *img);

#endif
