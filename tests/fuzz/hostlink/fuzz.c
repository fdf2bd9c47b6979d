/* tests/fuzz/hostlink: tsim's decoder of the frames a host sends over the
 * host link (sim/tsim_hlframe.c), as tsim_hostlink.c drives it: the bytes
 * arrive in pieces into a bounded buffer, each piece is decoded as far as
 * it goes, and what is left when the host closes is described. Built
 * against the board configuration's tinsel_config.h. The first byte picks
 * the run's board mesh (1..8 x 1..8 boards); the rest is the stream. A
 * message the decoder lets through must be for a thread of that run, or a
 * keyed send with a key that has beats. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tsim_hlframe.h"

enum { CAP = 4096 };

static void check_msg(const TsimHlRange *r, const TsimHlMsg *m) {
  if (m->flits < 1 || m->flits > TinselMaxFlitsPerMsg) abort();
  if (m->keyed) {
    if (m->mbox != TinselMailboxRoutingKey || (m->key & 31) == 0) abort();
    return;
  }
  uint32_t board = m->mbox >> (TinselMailboxMeshXBits + TinselMailboxMeshYBits);
  unsigned bx = board & ((1u << TinselMeshXBits) - 1), by = board >> TinselMeshXBits;
  if (bx >= r->boards_x || by >= r->boards_y || m->mask == 0 || (m->mask & (m->mask - 1))) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  TsimHlRange r = { 1u + (data[0] & 7), 1u + (data[0] >> 3 & 7) };
  if (r.boards_x > 1u << TinselMeshXBits) r.boards_x = 1u << TinselMeshXBits;
  if (r.boards_y > 1u << TinselMeshYBits) r.boards_y = 1u << TinselMeshYBits;
  unsigned piece = 1u + (data[0] >> 6) * 23;   /* bytes per read: 1, 24, 47 or 70 */
  data++, size--;
  TsimHlDecoder d;
  memset(&d, 0, sizeof d);
  static unsigned char in[CAP];
  size_t in_len = 0, at = 0;
  char err[512];
  for (;;) {
    size_t n = size - at < piece ? size - at : piece;
    if (n > CAP - in_len) n = CAP - in_len;
    memcpy(in + in_len, data + at, n);
    in_len += n, at += n;
    int rc;
    size_t used;
    TsimHlMsg m;
    while ((rc = tsim_hl_decode(&d, &r, in, in_len, &used, &m, err, sizeof err)) >= 0) {
      if (used > in_len) abort();
      memmove(in, in + used, in_len - used);
      in_len -= used;
      if (rc == 1) check_msg(&r, &m);
      else if (!used) break;
    }
    if (rc < 0) {
      if (!err[0]) abort();
      return 0;   /* tsim stops with the message */
    }
    if (at == size) break;
    if (n == 0) abort();   /* a full buffer that nothing could be taken from */
  }
  char what[600];
  int left = tsim_hl_leftover(&d, in, in_len, what, sizeof what);
  if ((left != 0) != (in_len != 0) || (left && !what[0])) abort();
  return 0;
}
