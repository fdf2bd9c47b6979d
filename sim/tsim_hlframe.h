/* tsim_hlframe.h: the host link's frames from the host (tinsel.md §4.2), as
   bytes: a 16-byte header {dest, NM, (flits - 1) << 24, key}, then NM + 1
   messages of `flits` flits. The decoder checks each header against the
   configuration (tinsel_config.h) and the run's boards before anything
   enters the model, so that a message for a thread that does not exist is
   an error naming the address, not a message that vanishes. No model, no
   socket: tsim_hostlink.c feeds it the bytes it read, the fuzz harness
   (tests/fuzz/hostlink) any bytes at all. */
#ifndef TSIM_HLFRAME_H
#define TSIM_HLFRAME_H

#include <stddef.h>
#include <stdint.h>

#include "tinsel_config.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TSIM_HL_HDR = 16 };

/* The run's boards: mesh addresses X 0..boards_x-1, Y 0..boards_y-1. */
typedef struct {
  unsigned boards_x, boards_y;
} TsimHlRange;

/* The decoder's state between calls: the header being obeyed. */
typedef struct {
  uint32_t dest, key, nm;
  unsigned flits, left;          /* left: messages still to come under the header */
  unsigned long long headers, msgs, bytes;   /* so far: headers, messages, bytes taken */
} TsimHlDecoder;

/* One message for the West link. */
typedef struct {
  int keyed;          /* 1: a routing-key send of key KEY; 0: to MBOX's threads in MASK */
  uint32_t mbox;      /* the mailbox address (board and mailbox), keyed or not as the link wants it */
  uint32_t key;
  uint64_t mask;
  unsigned flits;
  uint32_t words[TinselBytesPerMsg / 4];
} TsimHlMsg;

/* Takes the next frame piece from BUF[0..LEN): a header (checked), or a
   whole message under the current header. Returns 1 with *OUT filled, 0
   when nothing more can be taken yet (*USED says how much was: a header
   alone, or nothing), -1 with the reason in ERR (a header the model cannot
   obey: bad flit count or NM, a thread address outside the run, a key with
   no beats). */
int tsim_hl_decode(TsimHlDecoder *d, const TsimHlRange *r, const unsigned char *buf, size_t len, size_t *used,
                   TsimHlMsg *out, char *err, size_t errlen);

/* When the host closes with BUF[0..LEN) not taken: 0 if none, else what
   they were in MSG: 1 when they are whole messages not yet delivered, 2
   when the stream ends in a partial header or message (under which header,
   how many of its bytes) or in a header the decoder refuses. */
int tsim_hl_leftover(const TsimHlDecoder *d, const unsigned char *buf, size_t len, char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif
#endif
