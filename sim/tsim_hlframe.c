/* tsim_hlframe.c: the host link's frame decoder (tsim_hlframe.h). */
#include "tsim_hlframe.h"

#include <stdio.h>
#include <string.h>

enum { FLIT_BYTES = TinselBytesPerFlit };
/* The bits of a thread address: thread in mailbox, mailbox X and Y, board X and Y. */
enum { ADDR_BITS = TinselLogThreadsPerMailbox + TinselMailboxMeshXBits + TinselMailboxMeshYBits + TinselMeshXBits +
                   TinselMeshYBits };

static uint32_t word_at(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* "header H at byte B {dest, NM, flits, key}" of D's current header. */
static void describe_header(const TsimHlDecoder *d, char *s, size_t n) {
  snprintf(s, n, "header %llu {dest 0x%08x, NM %u, %u flits, key 0x%08x}", d->headers, d->dest, d->nm, d->flits,
           d->key);
}

/* Thread address A as the hardware reads it: 0 if it names a thread of the
   run, else -1 with why in ERR. */
static int check_thread(const TsimHlRange *r, uint32_t a, char *err, size_t errlen) {
  unsigned thread = a & (TinselThreadsPerMailbox - 1);
  unsigned core = thread >> TinselLogThreadsPerCore;
  uint32_t m = a >> TinselLogThreadsPerMailbox;
  unsigned mx = m & ((1u << TinselMailboxMeshXBits) - 1);
  unsigned my = (m >> TinselMailboxMeshXBits) & ((1u << TinselMailboxMeshYBits) - 1);
  uint32_t b = m >> (TinselMailboxMeshXBits + TinselMailboxMeshYBits);
  unsigned bx = b & ((1u << TinselMeshXBits) - 1), by = (b >> TinselMeshXBits) & ((1u << TinselMeshYBits) - 1);
  uint32_t above = b >> (TinselMeshXBits + TinselMeshYBits);
  unsigned ncores = (unsigned)TinselCoresPerMailbox;
  if (!above && bx < r->boards_x && by < r->boards_y && mx < TinselMailboxMeshXLen && my < TinselMailboxMeshYLen &&
      core < ncores)
    return 0;
  char extra[64] = "";
  if (above)
    snprintf(extra, sizeof extra, "; bits 0x%08x above the board address", a & ~((1u << ADDR_BITS) - 1));
  snprintf(err, errlen,
           "destination 0x%08x (board (%u, %u), mailbox (%u, %u), core %u, thread %u%s) is not a thread of this run, "
           "which has boards (0..%u, 0..%u), mailboxes (0..%u, 0..%u) on each, %u cores of %u threads on each mailbox",
           a, bx, by, mx, my, core, a & (TinselThreadsPerCore - 1), extra, r->boards_x - 1, r->boards_y - 1,
           TinselMailboxMeshXLen - 1, TinselMailboxMeshYLen - 1, ncores, TinselThreadsPerCore);
  return -1;
}

int tsim_hl_decode(TsimHlDecoder *d, const TsimHlRange *r, const unsigned char *buf, size_t len, size_t *used,
                   TsimHlMsg *out, char *err, size_t errlen) {
  size_t u = 0;
  *used = 0;
  if (!d->left) {
    if (len < TSIM_HL_HDR) return 0;
    uint32_t w2 = word_at(buf + 8);
    d->dest = word_at(buf);
    d->nm = word_at(buf + 4);
    d->flits = (w2 >> 24) + 1;
    d->key = word_at(buf + 12);
    d->headers++;
    char what[160], why[400];
    describe_header(d, what, sizeof what);
    if (d->flits > TinselMaxFlitsPerMsg || (w2 & 0xffffff)) {
      snprintf(err, errlen, "%s at byte %llu: word 2 (0x%08x) is not (flits - 1) << 24 with at most %d flits", what,
               d->bytes, w2, TinselMaxFlitsPerMsg);
      return -1;
    }
    if (d->nm == 0xffffffffu) {
      snprintf(err, errlen, "%s at byte %llu: word 1 (messages - 1) overflows", what, d->bytes);
      return -1;
    }
    if (d->key || (d->dest & TinselRoutingKeyBit)) {
      /* A key's low 5 bits count its beats in the routing table: 0 names no record. */
      if ((d->key & 31) == 0) {
        snprintf(err, errlen, "%s at byte %llu: a keyed send to key 0x%08x, which has no beats (its low 5 bits are "
                 "0): it would reach no thread", what, d->bytes, d->key);
        return -1;
      }
    } else if (check_thread(r, d->dest, why, sizeof why)) {
      snprintf(err, errlen, "%s at byte %llu: %s", what, d->bytes, why);
      return -1;
    }
    d->left = d->nm + 1;
    d->bytes += TSIM_HL_HDR;
    u = TSIM_HL_HDR;
  }
  size_t bytes = (size_t)d->flits * FLIT_BYTES;
  if (len - u < bytes) {
    *used = u;
    return 0;
  }
  memset(out, 0, sizeof *out);
  for (unsigned w = 0; w < bytes / 4; w++) out->words[w] = word_at(buf + u + 4 * w);
  out->flits = d->flits;
  if (d->key || (d->dest & TinselRoutingKeyBit)) {
    /* As tinselKeySend: the routing-key mailbox address, the key in the mask. */
    out->keyed = 1;
    out->mbox = TinselMailboxRoutingKey;
    out->key = d->key;
    out->mask = d->key;
  } else {
    out->mbox = d->dest >> TinselLogThreadsPerMailbox;
    out->mask = 1ull << (d->dest & (TinselThreadsPerMailbox - 1));
  }
  d->left--;
  d->msgs++;
  d->bytes += bytes;
  *used = u + bytes;
  return 1;
}

int tsim_hl_leftover(const TsimHlDecoder *d0, const unsigned char *buf, size_t len, char *msg, size_t msglen) {
  if (!len) return 0;
  /* Walk what is left with a copy of the decoder (any board: only the framing matters here). */
  TsimHlDecoder d = *d0;
  TsimHlRange any = { 1u << TinselMeshXBits, 1u << TinselMeshYBits };
  unsigned long long whole = 0;
  size_t at = 0, used;
  TsimHlMsg m;
  char err[8];
  int rc;
  while ((rc = tsim_hl_decode(&d, &any, buf + at, len - at, &used, &m, err, sizeof err)) == 1 || (rc == 0 && used)) {
    at += used;
    whole += (unsigned long long)rc;
  }
  size_t rest = len - at;
  int n = snprintf(msg, msglen, "the host closed the link");
  if (whole && n >= 0 && (size_t)n < msglen)
    n += snprintf(msg + n, msglen - (size_t)n, " with %llu whole messages the board had not taken (%zu bytes), lost%s",
                  whole, at, rest ? ", and" : "");
  if (n < 0 || (size_t)n >= msglen) return rest ? 2 : 1;
  msg += n, msglen -= (size_t)n;
  if (!rest) return 1;
  if (rc < 0)
    snprintf(msg, msglen, " after %zu bytes under a header it would refuse (at byte %llu)", rest, d.bytes);
  else if (!d.left)
    snprintf(msg, msglen, " in the middle of header %llu (at byte %llu): %zu of its 16 bytes had come", d.headers + 1,
             d.bytes, rest);
  else {
    char what[160];
    describe_header(&d, what, sizeof what);
    snprintf(msg, msglen, " in the middle of message %u of %u under %s (at byte %llu): %zu of its %u bytes had come",
             d.nm + 1 - d.left + 1, d.nm + 1, what, d.bytes, rest, d.flits * FLIT_BYTES);
  }
  return 2;
}
