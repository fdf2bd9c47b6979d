/* tsim_progrouter.c: the C side of the board's programmable router
   (rtl_models/progrouter.sv, tinsel.md §3.3): a keyed message's lookup.

   A routing key {ram[1], beat pointer[26], numBeats[5]} names numBeats
   32-byte beats in DRAM `ram` of the board, at the key's own byte address
   (bits 30:5). Each beat holds five 48-bit chunks and, in bytes 31:30, its
   record count; the first record is in chunk 4 (bytes 29:24), the next
   ones below it, and a 96-bit record takes two chunks, its tag in the upper
   one. The lookup turns the message into the messages its records name
   (new handles, payload rewritten here: contents stay in C) and tells the
   fetcher when each is ready: DRAMLatency after the fetch starts for the
   first beat, then one beat per cycle; an IND record starts a new fetch
   when its beat arrives. A malformed table halts the run naming the board,
   the key and the beat. The encoder is host/place/progrouter.c. */
#include "tsim_progrouter.h"

#include "Vtsim_top__Dpi.h"
#include "tinsel_config.h"
#include "tsim_boards.h"
#include "tsim_mbox.h"
#include "tsim_mem.h"
#include "tsim_run.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { URM1 = 0, URM2 = 1, RR = 2, MRM = 3, IND = 4 };
enum { BEAT_BYTES = 32, CHUNKS = 5, MAX_BEATS = (1 << TinselLogRoutingEntryLen) - 1 };
/* Longest chain of keys one message may walk through IND records (a loop
   in the tables would otherwise never end). */
enum { MAX_CHAIN = 64 };
enum { MAX_OUT = TSIM_PR_MAX_OUT };

typedef struct {
  unsigned port, dest, msg, at;
} Out;

/* Fetchers of every board: each holds the messages of its current lookup. */
enum { FETCHERS = TSIM_MAX_BOARDS * TSIM_PR_FETCHERS };
static struct {
  Out out[MAX_OUT];
  unsigned n;
} fetcher[FETCHERS];

static struct {
  unsigned long long lookups, beats, sent, sent_inter, no_dest;
  unsigned out_max;
  long long inflight;  /* messages the router created minus consumed (idle detection) */
} board_stats[TSIM_MAX_BOARDS];

static const char *const dir_name[] = {"north", "south", "east", "west"};

void tsim_pr_stats_reduce(void (*or)(void *buf, size_t bytes)) { or(board_stats, sizeof board_stats); }

/* Halt: the table of KEY on BOARD is malformed at BEAT (its index in the key). */
static int bad_table(unsigned board, uint32_t key, unsigned beat, const char *fmt, ...) {
  unsigned a = tsim_board_addr(board);
  fprintf(stderr, "tsim: board %u (%u,%u): router: key 0x%08x, beat %u (DRAM %u address 0x%08x): ", board,
          a & ((1u << TinselMeshXBits) - 1), a >> TinselMeshXBits, key, beat, key >> 31,
          (key & 0x7fffffe0u) + BEAT_BYTES * beat);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  tsim_stop = TSIM_STOP_HALT;
  return -1;
}

static uint64_t chunk(const uint8_t *beat, int i) {
  uint64_t v = 0;
  for (int k = 5; k >= 0; k--) v = v << 8 | beat[6 * i + k];
  return v;
}

/* Add one message to fetcher F's list. */
static int emit(unsigned board, unsigned f, uint32_t key, unsigned beat, unsigned port, unsigned dest, unsigned msg,
                unsigned at) {
  if (fetcher[f].n == MAX_OUT) return bad_table(board, key, beat, "more than %d destinations in one lookup", MAX_OUT);
  fetcher[f].out[fetcher[f].n++] = (Out){port, dest, msg, at};
  return 0;
}

/* Walk the beats of KEY (and of the keys its IND records name), starting
   at cycle offset AT; add the messages made from MSG to fetcher F. */
static int walk(unsigned board, unsigned f, uint32_t key, unsigned msg, unsigned at, int depth) {
  unsigned nbeats = key & MAX_BEATS, space = board * TinselDRAMsPerBoard + (key >> 31);
  uint32_t base = key & 0x7fffffe0u;
  unsigned mboxes = TinselMailboxesPerBoard, me = tsim_board_addr(board);
  int inds = 0;
  if (depth > MAX_CHAIN) return bad_table(board, key, 0, "more than %d keys chained by IND records (a loop?)", MAX_CHAIN);
  for (unsigned b = 0; b < nbeats; b++) {
    uint8_t beat[BEAT_BYTES];
    unsigned ready = at + TinselDRAMLatency + b;
    for (int i = 0; i < BEAT_BYTES; i++) beat[i] = (uint8_t)tsim_mem_read(space, base + BEAT_BYTES * b + i, 1);
    board_stats[board].beats++;
    unsigned size = beat[30] | beat[31] << 8;
    if (size < 1 || size > CHUNKS) return bad_table(board, key, b, "record count %u (expected 1..%d)", size, CHUNKS);
    int pos = 0;
    for (unsigned r = 0; r < size; r++) {
      if (pos >= CHUNKS) return bad_table(board, key, b, "record %u lies beyond the beat's 5 chunks", r);
      uint64_t lo = chunk(beat, 4 - pos), hi = 0;
      unsigned tag = (unsigned)(lo >> 45);
      if (tag == URM2 || tag == MRM) {
        if (pos + 2 > CHUNKS) return bad_table(board, key, b, "96-bit record %u starts in the last chunk", r);
        hi = lo;
        lo = chunk(beat, 3 - pos);
        pos += 2;
      } else {
        pos += 1;
      }
      uint64_t top = tag == URM2 || tag == MRM ? hi : lo;  /* the chunk with the tag */
      unsigned mbox = (unsigned)(top >> 41) & 15, thread = (unsigned)(top >> 35) & 63;
      if ((tag == URM1 || tag == URM2 || tag == MRM) && mbox >= mboxes)
        return bad_table(board, key, b, "record %u names mailbox %u of a board with %u", r, mbox, mboxes);
      unsigned dest = me << TinselLogMailboxesPerBoard | mbox, h;
      switch (tag) {
      case URM1:
        h = tsim_mbox_copy(msg, 1ull << thread);
        tsim_mbox_rewrite(h, 0, (uint32_t)lo, ~0u);
        if (emit(board, f, key, b, TSIM_PR_NOC, dest, h, ready)) return -1;
        board_stats[board].inflight += 1;
        break;
      case URM2: {
        uint64_t k = (hi & 0xffff) << 48 | lo;
        h = tsim_mbox_copy(msg, 1ull << thread);
        tsim_mbox_rewrite(h, 0, (uint32_t)k, ~0u);
        tsim_mbox_rewrite(h, 1, (uint32_t)(k >> 32), ~0u);
        if (emit(board, f, key, b, TSIM_PR_NOC, dest, h, ready)) return -1;
        board_stats[board].inflight += 1;
        break;
      }
      case MRM: {
        uint64_t mask = (hi & 0xffff) << 48 | lo;
        if (TinselThreadsPerMailbox < 64 && mask >> (TinselThreadsPerMailbox % 64))
          return bad_table(board, key, b, "MRM record %u: mask 0x%016llx names threads beyond the mailbox's %u", r,
                           (unsigned long long)mask, TinselThreadsPerMailbox);
        h = tsim_mbox_copy(msg, mask);
        tsim_mbox_rewrite(h, 0, (uint32_t)(hi >> 16), 0xffffu);
        if (emit(board, f, key, b, TSIM_PR_NOC, dest, h, ready)) return -1;
        board_stats[board].inflight += __builtin_popcountll(mask);
        break;
      }
      case RR: {
        unsigned dir = (unsigned)(lo >> 43) & 3;
        if (tsim_board_next(board, dir) < 0)
          return bad_table(board, key, b, "RR record %u sends %s, where this board has no neighbour", r, dir_name[dir]);
        h = tsim_mbox_copy(msg, (uint32_t)lo);
        if (emit(board, f, key, b, dir, TinselMailboxRoutingKey, h, ready)) return -1;
        board_stats[board].inflight += 1;
        board_stats[board].sent_inter++;
        break;
      }
      case IND:
        if (++inds > 1) return bad_table(board, key, b, "a second IND record (at most one per key)");
        if (walk(board, f, (uint32_t)lo, msg, ready + 1, depth + 1)) return -1;
        break;
      default:
        return bad_table(board, key, b, "record %u has unknown type %u", r, tag);
      }
    }
  }
  if (nbeats == MAX_BEATS && inds != 1)
    return bad_table(board, key, MAX_BEATS - 1, "a %d-beat key must hold exactly one IND record, not %d", MAX_BEATS, inds);
  return 0;
}

/* The run's index of the board at mesh address XY (the models know their
   {Y, X}; tsim_boards.h). */
static unsigned board_of(unsigned xy) {
  int b = tsim_board_of_addr(xy);
  return b < 0 ? 0 : (unsigned)b;
}

int tsim_pr_lookup(unsigned board_xy, unsigned f, unsigned msg, unsigned *count) {
  unsigned board = board_of(board_xy), g = board * TSIM_PR_FETCHERS + f;
  uint32_t key = (uint32_t)tsim_mbox_mask(msg);
  *count = 0;
  if (f >= TSIM_PR_FETCHERS) return -1;
  fetcher[g].n = 0;
  board_stats[board].lookups++;
  board_stats[board].inflight -= 1;  /* the keyed message becomes its destinations */
  int rc = walk(board, g, key, msg, 0, 0);
  tsim_mbox_drop(msg);
  if (rc) return rc;
  if (fetcher[g].n == 0) board_stats[board].no_dest++;
  if (fetcher[g].n > board_stats[board].out_max) board_stats[board].out_max = fetcher[g].n;
  *count = fetcher[g].n;
  return 0;
}

void tsim_pr_out(unsigned board_xy, unsigned f, unsigned k, unsigned *port, unsigned *dest, unsigned *msg,
                 unsigned *at) {
  const Out *o = &fetcher[board_of(board_xy) * TSIM_PR_FETCHERS + f % TSIM_PR_FETCHERS].out[k % MAX_OUT];
  *port = o->port;
  *dest = o->dest;
  *msg = o->msg;
  *at = o->at;
}

void tsim_pr_sent(unsigned board_xy) { board_stats[board_of(board_xy)].sent++; }

unsigned tsim_pr_counter(unsigned board, unsigned which) {
  if (board >= TSIM_MAX_BOARDS) return 0;
  return (unsigned)(which ? board_stats[board].sent_inter : board_stats[board].sent);
}

long long tsim_pr_inflight(unsigned board) { return board < TSIM_MAX_BOARDS ? board_stats[board].inflight : 0; }

void tsim_pr_print_stats(void) {
  for (unsigned b = 0; b < tsim_boards(); b++) {
    if (!board_stats[b].lookups) continue;
    fprintf(stderr, "tsim: %srouter: lookups %llu beats %llu sent %llu inter-board %llu no-destination %llu "
            "most-per-lookup %u\n", tsim_board_prefix(b), board_stats[b].lookups, board_stats[b].beats,
            board_stats[b].sent, board_stats[b].sent_inter, board_stats[b].no_dest, board_stats[b].out_max);
  }
}
