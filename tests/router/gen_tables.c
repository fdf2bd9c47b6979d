/* tests/router/gen_tables.c: the routing tables of the router tests, encoded
 * by the placer's own record encoder (host/place/progrouter.c), so the
 * model's decoder (sim/tsim_progrouter.c) is checked against it.
 *
 *   gen_tables SCENARIO CONFIG > tables.h
 *
 * SCENARIO is `board` (every record type on one board) or `box` (one key
 * fanned out to every board of the box through RR records). The header
 * holds the tables as bytes for a section placed at POLiteProgRouterBase
 * (tests/router/router.ld), the keys, the keys thread 0 sends, and what
 * every receiving thread must get: per message, the payload words 0 and 1
 * under masks (the records' local keys) and the sending key's index.
 * Entries are looked up on the board named in the table below; every board
 * holds the same image, so each board's chain uses its own keys. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "place.h"
#include "place_internal.h"

enum { BEAT = 32, MAX_RECS = 16 };
enum { N = 0, S = 1, E = 2, W = 3 };

/* A record whose key field may be another entry's key (RR, IND: `ref`). */
typedef struct {
  PlaceRecord r;
  const char *ref;
} Rec;

typedef struct {
  const char *name;
  int bx, by;      /* the board that looks this key up */
  int ram;         /* DRAM; 1: written at run time by a thread of DRAM 1 (rt_dram1) */
  int empty;       /* numBeats 0: no destinations */
  int send;        /* thread 0 of board (0,0) sends it (by index order) */
  int bad;         /* a malformed beat (record count 0) instead of records */
  int n;
  Rec rec[MAX_RECS];
} Entry;

#define URM1(mb, th, k) {{.tag = PLACE_URM1, .mbox = (mb), .thread = (th), .key = (k)}, NULL}
#define URM2(mb, th, k) {{.tag = PLACE_URM2, .mbox = (mb), .thread = (th), .key = (k)}, NULL}
#define MRM(mb, m, k) {{.tag = PLACE_MRM, .mbox = (mb), .mask = (m), .key = (k)}, NULL}
#define RR(d, to) {{.tag = PLACE_RR, .dir = (d)}, (to)}
#define IND(to) {{.tag = PLACE_IND}, (to)}

/* Every record type on one board. */
static Entry board_entries[] = {
  {"URM1", 0, 0, 0, 0, 1, 0, 1, {URM1(1, 5, 0xaabbccddu)}},
  {"URM2", 0, 0, 0, 0, 1, 0, 1, {URM2(2, 7, 0x1122334455667788ull)}},
  {"MRM", 0, 0, 0, 0, 1, 0, 1, {MRM(3, 0x8000000000000003ull, 0x1234)}},
  {"IND", 0, 0, 0, 0, 1, 0, 1, {IND("IND_TARGET")}},
  {"IND_TARGET", 0, 0, 0, 0, 0, 0, 1, {URM1(4, 9, 0x0d0d0d0du)}},
  {"EMPTY", 0, 0, 0, 1, 1, 0, 0, {{{0}, NULL}}},
  /* Nine records over three beats (96-bit records never straddle beats). */
  {"MULTI", 0, 0, 0, 0, 1, 0, 9,
   {MRM(5, 0xf, 0x5555), URM1(6, 1, 0x61), URM2(7, 2, 0x7200000072ull), URM1(8, 3, 0x83), MRM(9, 1ull << 40, 0x9999),
    URM1(11, 4, 0xb4), URM2(12, 5, 0xc5), URM1(13, 6, 0xd6), MRM(14, 0x00ff000000000000ull, 0xeeee)}},
  /* A key in DRAM 1, sent by thread 0 of core 32 (DRAM 1's first core). */
  {"DRAM1", 0, 0, 1, 0, 0, 0, 1, {URM1(10, 11, 0x10101010u)}},
  {"BAD", 0, 0, 0, 0, 0, 1, 0, {{{0}, NULL}}},
  /* A RR record toward the edge of a lone board (sent by -DSEND_BAD_RR). */
  {"BAD_RR", 0, 0, 0, 0, 0, 0, 1, {RR(W, "URM1")}},
};

/* One key from board (0,0) reaching threads on all six boards of the box:
 * east along row 0, north from each board of row 0. */
static Entry box_entries[] = {
  {"F00", 0, 0, 0, 0, 1, 0, 4, {MRM(0, 0x6, 0x0100), RR(E, "F10"), RR(N, "F01"), URM1(15, 63, 0x00f00f00u)}},
  {"F10", 1, 0, 0, 0, 0, 0, 3, {URM1(1, 2, 0x10101010u), RR(E, "F20"), RR(N, "F11")}},
  {"F20", 2, 0, 0, 0, 0, 0, 2, {URM2(2, 3, 0x2020202020202020ull), RR(N, "F21")}},
  {"F01", 0, 1, 0, 0, 0, 0, 1, {MRM(3, 0xffffffffffffffffull, 0x0101)}},
  {"F11", 1, 1, 0, 0, 0, 0, 1, {IND("F11B")}},
  {"F11B", 1, 1, 0, 0, 0, 0, 1, {URM1(4, 5, 0x11111111u)}},
  {"F21", 2, 1, 0, 0, 0, 0, 2, {URM1(5, 6, 0x21212121u), MRM(6, 1ull << 33, 0x2121)}},
};

static const PlaceMachine *mach;
static Entry *entries;
static int nentries;
static uint32_t keys[64], addrs[64];
static size_t nbeats_of[64];

static int find(const char *name) {
  for (int i = 0; i < nentries; i++)
    if (!strcmp(entries[i].name, name)) return i;
  fprintf(stderr, "gen_tables: no entry %s\n", name);
  exit(1);
}

/* Pack an entry's records into beats as the placer does (a 96-bit record
 * never straddles two beats); returns the number of beats. */
static size_t pack(const Entry *e, uint8_t *out) {
  size_t nb = 0;
  int pos = 5, count = 0;
  for (int i = 0; i < e->n; i++) {
    PlaceRecord r = e->rec[i].r;
    if (e->rec[i].ref) r.key = keys[find(e->rec[i].ref)];
    int c = place_record_chunks(&r);
    if (pos + c > 5) {
      nb++, pos = 0, count = 0;
      memset(out + (nb - 1) * BEAT, 0, BEAT);
    }
    place_beat_put(out + (nb - 1) * BEAT, pos, &r);
    pos += c, count++;
    out[(nb - 1) * BEAT + 30] = (uint8_t)count;
    out[(nb - 1) * BEAT + 31] = (uint8_t)(count >> 8);
  }
  if (e->bad) { /* one beat of zeros: record count 0 */
    memset(out, 0, BEAT);
    nb = 1;
  }
  return nb;
}

static uint32_t thread_id(int bx, int by, int mbox, int thread) {
  uint32_t board = (uint32_t)by << mach->mesh_x_bits | (uint32_t)bx;
  return board << mach->log_threads_per_board | (uint32_t)mbox << mach->log_threads_per_mbox | (uint32_t)thread;
}

/* One expected message per destination thread of a URM/MRM record. */
/* What board (0,0)'s router emits for the keys sent (CSRs ProgRouterSent and
   ProgRouterSentInter): one message per URM/MRM/RR record looked up there. */
static int sent00, inter00;

static void expect(int sender, const Entry *e) {
  for (int i = 0; i < e->n; i++) {
    const PlaceRecord *r = &e->rec[i].r;
    if (!e->bx && !e->by) {
      sent00 += r->tag != PLACE_IND;
      inter00 += r->tag == PLACE_RR;
    }
    if (r->tag == PLACE_IND) expect(sender, &entries[find(e->rec[i].ref)]);
    if (r->tag == PLACE_RR) expect(sender, &entries[find(e->rec[i].ref)]);
    if (r->tag != PLACE_URM1 && r->tag != PLACE_URM2 && r->tag != PLACE_MRM) continue;
    for (int t = 0; t < 64; t++) {
      int hit = r->tag == PLACE_MRM ? (int)(r->mask >> t & 1) : t == r->thread;
      if (!hit) continue;
      uint32_t w0 = (uint32_t)r->key, m0 = r->tag == PLACE_MRM ? 0xffffu : ~0u;
      uint32_t w1 = r->tag == PLACE_URM2 ? (uint32_t)(r->key >> 32) : 0, m1 = r->tag == PLACE_URM2 ? ~0u : 0;
      printf("  {0x%05" PRIx32 "u, 0x%08" PRIx32 "u, 0x%08" PRIx32 "u, 0x%08" PRIx32 "u, 0x%08" PRIx32 "u, %d},\n",
             thread_id(e->bx, e->by, r->mbox, t), w0 & m0, m0, w1, m1, sender);
    }
  }
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "board") && strcmp(argv[1], "box"))) {
    fprintf(stderr, "usage: gen_tables board|box CONFIG\n");
    return 64;
  }
  static PlaceMachine m;
  char err[256];
  if (place_machine_load(&m, argv[2], err, sizeof err)) {
    fprintf(stderr, "gen_tables: %s\n", err);
    return 1;
  }
  mach = &m;
  int box = !strcmp(argv[1], "box");
  entries = box ? box_entries : board_entries;
  nentries = box ? (int)(sizeof box_entries / sizeof *box_entries) : (int)(sizeof board_entries / sizeof *board_entries);

  /* Layout: DRAM 0 entries from the router base; the DRAM 1 entry at the
   * same offset past DRAM 0's (so DRAM 0 holds zeros there). */
  static uint8_t bytes[64 * 31 * BEAT], dram1[31 * BEAT];
  size_t len = 0, len1 = 0;
  for (int pass = 0; pass < 2; pass++) { /* pass 0: addresses and keys; pass 1: bytes */
    len = 0;
    uint8_t scratch[31 * BEAT];
    for (int i = 0; i < nentries; i++) {
      if (entries[i].ram) continue;
      size_t nb = entries[i].empty ? 0 : pack(&entries[i], scratch);
      if (pass) memcpy(bytes + len, scratch, nb * BEAT);
      addrs[i] = m.router_base + (uint32_t)len;
      nbeats_of[i] = nb;
      len += (nb ? nb : 1) * BEAT;  /* an empty key still gets its own address */
    }
    for (int i = 0; i < nentries; i++) {
      if (!entries[i].ram) continue;
      size_t nb = pack(&entries[i], scratch);
      if (pass) memcpy(dram1, scratch, nb * BEAT), len1 = nb * BEAT;
      addrs[i] = m.router_base + (uint32_t)len;
      nbeats_of[i] = nb;
    }
    for (int i = 0; i < nentries; i++)
      keys[i] = place_router_key(&m, entries[i].ram, addrs[i], (int)nbeats_of[i]);
  }

  printf("/* DO NOT EDIT: generated by gen_tables %s %s (tests/router/gen_tables.c). */\n", argv[1], argv[2]);
  printf("#include <stdint.h>\n\n");
  for (int i = 0; i < nentries; i++) printf("#define KEY_%s 0x%08" PRIx32 "u\n", entries[i].name, keys[i]);
  printf("\n/* DRAM 0 from POLiteProgRouterBase (section .rtables, tests/router/router.ld). */\n");
  printf("__attribute__((section(\".rtables\"), used)) static const uint8_t rt_table[%zu] = {", len);
  for (size_t i = 0; i < len; i++) printf("%s0x%02x,", i % 16 ? " " : "\n  ", bytes[i]);
  printf("\n};\n\n/* Written by thread 0 of DRAM 1's first core at RT_DRAM1_ADDR of its DRAM. */\n");
  printf("#define RT_DRAM1_ADDR 0x%08" PRIx32 "u\n#define RT_DRAM1_WORDS %zu\n", m.router_base + (uint32_t)len, len1 / 4);
  printf("static const uint32_t rt_dram1[%zu] = {", len1 / 4 + 1);
  for (size_t i = 0; i < len1; i += 4)
    printf("%s0x%08x,", i % 32 ? " " : "\n  ",
           (unsigned)(dram1[i] | dram1[i + 1] << 8 | dram1[i + 2] << 16 | (uint32_t)dram1[i + 3] << 24));
  printf(" 0\n};\n\n/* The keys thread 0 of board (0,0) sends, in order. */\nstatic const uint32_t rt_send[] = {");
  int nsend = 0;
  for (int i = 0; i < nentries; i++)
    if (entries[i].send) printf("%sKEY_%s", nsend++ ? ", " : "", entries[i].name);
  printf("};\n#define RT_NSEND %d\n\n", nsend);
  printf("/* Expected messages: thread, word 0 and its mask, word 1 and its mask, index of\n"
         "   the sent key (RT_NSEND: the DRAM 1 key). */\n");
  printf("typedef struct { uint32_t thread, w0, m0, w1, m1; int sender; } RtExpect;\n");
  printf("static const RtExpect rt_expect[] = {\n");
  int s = 0;
  for (int i = 0; i < nentries; i++) {
    if (entries[i].send) expect(s++, &entries[i]);
    if (entries[i].ram) expect(nsend, &entries[i]);
  }
  printf("};\n#define RT_NEXPECT (sizeof rt_expect / sizeof rt_expect[0])\n");
  printf("#define RT_SENT00 %d\n#define RT_INTER00 %d\n", sent00, inter00);
  return 0;
}
