/* progrouter.c: programmable-router records and the per-board DRAM tables
 * they live in (tinsel.md §3.3).
 *
 * A routing key names a run of 32-byte beats in one of the board's DRAMs:
 * {ram, beat pointer, number of beats}. A beat is five 48-bit chunks and a
 * 16-bit record count in bytes 31:30; the first record sits in chunk 4
 * (bytes 29:24) and the next ones below it; a 96-bit record takes two
 * chunks of one beat, its tag in the upper one. A key names at most 31
 * beats, and a 31-beat key must hold exactly one IND record: longer record
 * lists become blocks of 30 beats plus a beat with the IND to the rest. */
#include <stdlib.h>
#include <string.h>

#include "place_internal.h"

#define BEAT 32
#define CHUNKS 5
#define MAX_KEY_BEATS 31

uint32_t place_router_key(const PlaceMachine *m, int ram, uint32_t addr, int nbeats) {
  uint32_t beat = addr >> m->log_bytes_per_beat;
  return ((uint32_t)ram << (m->log_beats_per_dram + m->log_routing_entry_len)) |
         (beat << m->log_routing_entry_len) | (uint32_t)nbeats;
}

int place_record_chunks(const PlaceRecord *r) {
  return r->tag == PLACE_URM2 || r->tag == PLACE_MRM ? 2 : 1;
}

/* The record as a 96-bit number: HI holds bits 95..48, LO bits 47..0; a
 * 48-bit record is in LO alone. Fields MSB to LSB as in tinsel.md §3.3. */
static void record_bits(const PlaceRecord *r, uint64_t *hi, uint64_t *lo) {
  uint64_t tag = (uint64_t)r->tag, mbox = (uint64_t)r->mbox & 15, key = r->key & 0xffffffffu;
  *hi = 0;
  switch (r->tag) {
  case PLACE_URM1: /* tag3 mbox4 thread6 unused3 localKey32 */
    *lo = tag << 45 | mbox << 41 | ((uint64_t)r->thread & 63) << 35 | key;
    break;
  case PLACE_URM2: /* tag3 mbox4 thread6 unused19 localKey64 */
    *hi = tag << 45 | mbox << 41 | ((uint64_t)r->thread & 63) << 35 | (r->key >> 48 & 0xffff);
    *lo = r->key & 0xffffffffffffull;
    break;
  case PLACE_RR: /* tag3 dir2 unused11 newKey32 */
    *lo = tag << 45 | ((uint64_t)r->dir & 3) << 43 | key;
    break;
  case PLACE_MRM: /* tag3 mbox4 unused9 localKey16 destMask64 */
    *hi = tag << 45 | mbox << 41 | (r->key & 0xffff) << 16 | (r->mask >> 48);
    *lo = r->mask & 0xffffffffffffull;
    break;
  default: /* IND: tag3 unused13 newKey32 */
    *lo = tag << 45 | key;
    break;
  }
}

static void put48(uint8_t *at, uint64_t v) {
  for (int i = 0; i < 6; i++) at[i] = (uint8_t)(v >> (8 * i));
}

void place_beat_put(uint8_t *beat, int pos, const PlaceRecord *r) {
  uint64_t hi, lo;
  record_bits(r, &hi, &lo);
  if (place_record_chunks(r) == 1) {
    put48(beat + 6 * (4 - pos), lo);
  } else { /* chunks pos (upper) and pos+1 (lower) */
    put48(beat + 6 * (3 - pos), lo);
    put48(beat + 6 * (4 - pos), hi);
  }
}

static void beat_set_count(uint8_t *beat, int n) {
  beat[30] = (uint8_t)n;
  beat[31] = (uint8_t)(n >> 8);
}

/* Packs records into beats: a 96-bit record never straddles two beats. */
static uint8_t *pack(const PlaceRecord *rec, size_t n, size_t *nbeats) {
  size_t cap = n + 1, nb = 1;
  uint8_t *beats = place_xalloc(cap, BEAT);
  int pos = 0, count = 0;
  for (size_t i = 0; i < n; i++) {
    int c = place_record_chunks(&rec[i]);
    if (pos + c > CHUNKS) {
      beat_set_count(beats + (nb - 1) * BEAT, count);
      nb++, pos = 0, count = 0;
    }
    place_beat_put(beats + (nb - 1) * BEAT, pos, &rec[i]);
    pos += c, count++;
  }
  beat_set_count(beats + (nb - 1) * BEAT, count);
  *nbeats = nb;
  return beats;
}

static int table_append(PlaceGraph *g, const PlaceMachine *m, PlaceBoardTable *t, int board,
                        int ram, const uint8_t *bytes, size_t len) {
  uint64_t room = (uint64_t)m->router_end - m->router_base;
  if (t->len[ram] + len > room)
    return place_fail(g, "board (%d,%d) DRAM %d: the routing tables need more than %llu bytes, all the "
                      "DRAM globals leave above POLiteProgRouterBase 0x%x", board % m->boards_x,
                      board / m->boards_x, ram, (unsigned long long)room, m->router_base);
  if (t->len[ram] + len > t->cap[ram]) {
    size_t cap = t->cap[ram] ? 2 * t->cap[ram] : 4096;
    while (cap < t->len[ram] + len) cap *= 2;
    uint8_t *b = realloc(t->bytes[ram], cap);
    if (!b) return place_fail(g, "out of memory for routing tables");
    t->bytes[ram] = b, t->cap[ram] = cap;
  }
  memcpy(t->bytes[ram] + t->len[ram], bytes, len);
  t->len[ram] += len;
  return 0;
}

/* Stores REC in the emptier DRAM of BOARD and returns its key. */
static int emit(PlaceGraph *g, const PlaceMachine *m, PlaceRoutes *r, int board,
                const PlaceRecord *rec, size_t n, uint32_t *key) {
  PlaceBoardTable *t = &r->boards[board];
  int ram = 0;
  for (int i = 1; i < m->drams_per_board; i++)
    if (t->len[i] < t->len[ram]) ram = i;
  size_t nb;
  uint8_t *beats = pack(rec, n, &nb);
  size_t start = t->len[ram];
  uint32_t base = m->router_base + (uint32_t)start;
  *key = 0;
  int rc = 0;
  size_t done = 0;
  uint32_t addr = base;
  while (!rc && nb - done >= MAX_KEY_BEATS) { /* 30 beats, then one with the IND */
    uint32_t next = addr + MAX_KEY_BEATS * BEAT;
    size_t rest = nb - done - (MAX_KEY_BEATS - 1);
    int rest_len = rest >= MAX_KEY_BEATS ? MAX_KEY_BEATS : (int)rest;
    uint8_t ind[BEAT] = {0};
    PlaceRecord ir = {.tag = PLACE_IND, .key = place_router_key(m, ram, next, rest_len)};
    place_beat_put(ind, 0, &ir);
    beat_set_count(ind, 1);
    rc = table_append(g, m, t, board, ram, beats + done * BEAT, (MAX_KEY_BEATS - 1) * BEAT);
    if (!rc) rc = table_append(g, m, t, board, ram, ind, BEAT);
    if (!*key) *key = place_router_key(m, ram, addr, MAX_KEY_BEATS);
    done += MAX_KEY_BEATS - 1, addr = next;
    r->records++;
  }
  if (!rc) rc = table_append(g, m, t, board, ram, beats + done * BEAT, (nb - done) * BEAT);
  if (!*key) *key = place_router_key(m, ram, addr, (int)(nb - done));
  r->records += n;
  r->table_bytes += t->len[ram] - start;
  free(beats);
  return rc;
}

/* Directions of RR records. */
enum { NORTH, SOUTH, EAST, WEST, HERE };

int place_route_remote(PlaceGraph *g, const PlaceMachine *m, PlaceRoutes *r, int from_board,
                       PlaceRemote *rem, size_t n, uint32_t *key) {
  int fx = from_board % m->boards_x, fy = from_board / m->boards_x;
  /* X first, then Y, as POLite's builder (tinsel.md §6.3) */
  size_t count[5] = {0};
  int *dir = place_xalloc(n, sizeof *dir);
  for (size_t i = 0; i < n; i++) {
    int x = rem[i].board % m->boards_x, y = rem[i].board / m->boards_x;
    dir[i] = x < fx ? WEST : x > fx ? EAST : y < fy ? SOUTH : y > fy ? NORTH : HERE;
    count[dir[i]]++;
  }
  PlaceRecord *rec = place_xalloc(n + 4, sizeof *rec);
  size_t nrec = 0;
  int rc = 0;
  static const int step[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}}; /* N S E W */
  for (int d = NORTH; d <= WEST && !rc; d++) {
    if (!count[d]) continue;
    PlaceRemote *sub = place_xalloc(count[d], sizeof *sub);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
      if (dir[i] == d) sub[k++] = rem[i];
    int next = (fy + step[d][1]) * m->boards_x + fx + step[d][0];
    uint32_t child;
    rc = place_route_remote(g, m, r, next, sub, k, &child);
    rec[nrec++] = (PlaceRecord){.tag = PLACE_RR, .dir = d, .key = child};
    free(sub);
  }
  for (size_t i = 0; i < n; i++)
    if (dir[i] == HERE)
      rec[nrec++] = (PlaceRecord){.tag = PLACE_MRM, .mbox = rem[i].board_mbox,
                                  .key = rem[i].key, .mask = rem[i].mask};
  if (!rc) rc = emit(g, m, r, from_board, rec, nrec, key);
  free(rec), free(dir);
  return rc;
}

static uint64_t get48(const uint8_t *at) {
  uint64_t v = 0;
  for (int i = 5; i >= 0; i--) v = v << 8 | at[i];
  return v;
}

/* The router's walk of KEY's beats on BOARD (the decoder of emit/pack). */
static int follow(const PlaceMachine *m, const PlaceBoardTable *boards, int board, uint32_t key,
                  PlaceDeliverFn fn, void *ctx, int depth) {
  int ram = (int)(key >> (m->log_beats_per_dram + m->log_routing_entry_len));
  uint32_t nbeats = key & ((1u << m->log_routing_entry_len) - 1);
  uint64_t at = (uint64_t)((key >> m->log_routing_entry_len) & ((1u << m->log_beats_per_dram) - 1))
                << m->log_bytes_per_beat;
  const PlaceBoardTable *t = &boards[board];
  if (depth > 64 || ram >= m->drams_per_board || at < m->router_base ||
      at - m->router_base + (uint64_t)nbeats * BEAT > t->len[ram])
    return -1;
  int rc = 0;
  for (uint32_t b = 0; b < nbeats && !rc; b++) {
    const uint8_t *beat = t->bytes[ram] + (at - m->router_base) + (uint64_t)b * BEAT;
    int n = beat[30] | beat[31] << 8, pos = 0;
    for (int i = 0; i < n && !rc && pos < CHUNKS; i++) {
      uint64_t hi = get48(beat + 6 * (4 - pos)), lo = 0;
      int tag = (int)(hi >> 45);
      if (tag == PLACE_URM2 || tag == PLACE_MRM) {
        if (pos + 2 > CHUNKS) return -1;
        lo = get48(beat + 6 * (3 - pos)), pos += 2;
      } else {
        pos++;
      }
      int mbox = (int)(hi >> 41 & 15), x = board % m->boards_x, y = board / m->boards_x;
      switch (tag) {
      case PLACE_URM1: fn(ctx, board, mbox, 1ull << (hi >> 35 & 63), (uint32_t)hi); break;
      case PLACE_URM2: fn(ctx, board, mbox, 1ull << (hi >> 35 & 63), (uint32_t)lo); break;
      case PLACE_MRM: fn(ctx, board, mbox, (hi & 0xffff) << 48 | lo, (uint32_t)(hi >> 16 & 0xffff)); break;
      case PLACE_RR: { /* N S E W */
        int d = (int)(hi >> 43 & 3), nx = x + (d == 2) - (d == 3), ny = y + (d == 0) - (d == 1);
        if (nx < 0 || ny < 0 || nx >= m->boards_x || ny >= m->boards_y) return -1;
        rc = follow(m, boards, ny * m->boards_x + nx, (uint32_t)hi, fn, ctx, depth + 1);
        break;
      }
      default: rc = follow(m, boards, board, (uint32_t)hi, fn, ctx, depth + 1); break;
      }
    }
  }
  return rc;
}

int place_router_follow(const PlaceMachine *m, const PlaceRoutes *r, int board, uint32_t key, PlaceDeliverFn fn,
                        void *ctx) {
  if (board < 0 || board >= m->nboards) return -1;
  return follow(m, r->boards, board, key, fn, ctx, 0);
}
