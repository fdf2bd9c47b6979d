/* tsim_mbox.c: the C side of the mailboxes and the NoC (rtl_models/mbox_dpi.sv)
   for one configuration: in-flight message contents, mailbox errors and the
   message statistics.

   A message's flits are copied out of the sender's send slot when its
   mailbox transmits it (from then on the thread may reuse the slot:
   tinselCanSend is 1 again) and into a receive slot when the destination
   mailbox accepts it, so the models only carry a handle. */
#include "tsim_mbox.h"

#include "Vtsim_top__Dpi.h"
#include "tinsel_config.h"
#include "tsim_boards.h"
#include "tsim_mem.h"
#include "tsim_progrouter.h"
#include "tsim_run.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

enum { NUM_TILES = TSIM_TILES, WORDS_PER_MSG = TinselBytesPerMsg / 4 };

/* The memory space of tile T's scratchpad (a run-wide tile number):
   tsim_dpi.c puts every board's DRAM slices first, then one scratchpad per tile. */
static unsigned scratchpad_space(unsigned tile) { return TSIM_DRAMS + tile; }

typedef struct {
  uint32_t words[WORDS_PER_MSG];
  uint64_t mask;
  unsigned flits;
  unsigned src;   /* sender: run-wide thread number, or TSIM_MSG_FROM_HOST */
  int next_free;  /* free list, -1 at the end; -2 while in flight */
} Msg;

/* A captured message sits in a mailbox's output register, a router FIFO,
   a link or a mailbox's input register: a few per mailbox (noc.sv, mbox.sv,
   board_router.sv), plus what a routing-key lookup makes at once (up to
   TSIM_PR_MAX_OUT); the pool is generous and a static array
   (nothing to free at the end). */
enum { MAX_IN_FLIGHT = NUM_TILES * 64 + 2 * TSIM_PR_MAX_OUT };

static struct {
  Msg msgs[MAX_IN_FLIGHT];
  int used, free_head, in_flight, max_in_flight;
  unsigned long long captured;  /* messages transmitted so far */
  struct { unsigned long long sent, received, deliveries, stalled; unsigned queue_max, pool_max, in_idle, asleep; int unfreed; } tile[NUM_TILES];
  struct { unsigned long long hops, blocked; unsigned buffered_max; } router[NUM_TILES];
} mb = { .free_head = -1 };

enum { ERR_SEND_BUSY = 1, ERR_RECV_EMPTY = 2, ERR_FREE_SLOT = 3, ERR_DEST = 4, ERR_WAIT_NONE = 5 };

/* The run-wide thread number of mailbox-local thread t of tile `tile`. */
static unsigned thread_id(unsigned tile, unsigned t) { return tile << TinselLogThreadsPerMailbox | t; }

/* "tsim: board B, core C, thread T: " of a run-wide thread number. */
static void print_thread(unsigned id) {
  unsigned core = id >> TinselLogThreadsPerCore;
  fprintf(stderr, "tsim: board %u, core %u, thread %u: ", core / TinselCoresPerBoard, core % TinselCoresPerBoard,
          id & (TinselThreadsPerCore - 1));
}

void tsim_mbox_error(unsigned tile, unsigned thread, int code, unsigned value) {
  print_thread(thread_id(tile, thread));
  fputs("mailbox: ", stderr);
  switch (code) {
  case ERR_SEND_BUSY: fputs("Send while the previous message is still in the send slot (tinselCanSend() is 0)\n", stderr); break;
  case ERR_RECV_EMPTY: fputs("Recv with no message waiting (tinselCanRecv() is 0)\n", stderr); break;
  case ERR_FREE_SLOT:
    fprintf(stderr, "Free of address 0x%08x, which holds no received message (slots %u..%u)\n", value,
            TinselThreadsPerMailbox, TinselMsgsPerMailbox - 1);
    break;
  case ERR_DEST:
    fprintf(stderr, "destination mailbox address 0x%x names the tile's custom accelerator, which is not modelled\n",
            value);
    break;
  case ERR_WAIT_NONE: fprintf(stderr, "WaitUntil 0x%x names no condition: the thread would sleep forever\n", value); break;
  default: fprintf(stderr, "error %d (0x%x)\n", code, value); break;
  }
  tsim_stop = TSIM_STOP_HALT;
}

static int new_msg(void) {
  if (mb.free_head < 0) {
    if (mb.used == MAX_IN_FLIGHT) {
      fprintf(stderr, "tsim: internal error: more than %d messages in flight\n", MAX_IN_FLIGHT);
      exit(70);
    }
    mb.msgs[mb.used].next_free = -1;
    mb.free_head = mb.used++;
  }
  int h = mb.free_head;
  mb.free_head = mb.msgs[h].next_free;
  mb.msgs[h].next_free = -2;
  if (++mb.in_flight > mb.max_in_flight) mb.max_in_flight = mb.in_flight;
  return h;
}

unsigned tsim_mbox_capture(unsigned tile, unsigned thread, unsigned slot, unsigned flits, unsigned mask_hi,
                           unsigned mask_lo) {
  int h = new_msg();
  Msg *m = &mb.msgs[h];
  mb.captured++;
  uint64_t mask = (uint64_t)mask_hi << 32 | mask_lo;
  if (TinselThreadsPerMailbox < 64 && mask >> (TinselThreadsPerMailbox % 64)) {
    print_thread(thread_id(tile, thread));
    fprintf(stderr, "mailbox: destination mask 0x%016llx names threads beyond the mailbox's %u\n",
            (unsigned long long)mask, TinselThreadsPerMailbox);
    tsim_stop = TSIM_STOP_HALT;
  }
  m->mask = mask;
  m->flits = flits;
  m->src = thread_id(tile, thread);
  for (unsigned w = 0; w < WORDS_PER_MSG; w++)
    m->words[w] = w < flits * (TinselBytesPerFlit / 4)
                      ? tsim_mem_read(scratchpad_space(tile), slot * TinselBytesPerMsg + 4 * w, 4) : 0;
  return (unsigned)h;
}

unsigned long long tsim_mbox_sent_so_far(void) { return mb.captured; }
int tsim_mbox_in_flight(void) { return mb.in_flight; }

unsigned tsim_mbox_inject(unsigned flits, const uint32_t *words, uint64_t mask) {
  int h = new_msg();
  Msg *m = &mb.msgs[h];
  m->mask = mask;
  m->flits = flits;
  m->src = TSIM_MSG_FROM_HOST;
  for (unsigned w = 0; w < WORDS_PER_MSG; w++) m->words[w] = w < flits * (TinselBytesPerFlit / 4) ? words[w] : 0;
  return (unsigned)h;
}

const uint32_t *tsim_mbox_words(unsigned msg) { return mb.msgs[msg].words; }

unsigned tsim_mbox_flits(unsigned msg) { return mb.msgs[msg].flits; }

void tsim_mbox_describe_src(unsigned msg, char *buf, size_t len) {
  unsigned src = mb.msgs[msg].src;
  if (src == TSIM_MSG_FROM_HOST) snprintf(buf, len, "the host");
  else {
    unsigned core = src >> TinselLogThreadsPerCore;
    snprintf(buf, len, "board %u, core %u, thread %u", core / TinselCoresPerBoard, core % TinselCoresPerBoard,
             src & (TinselThreadsPerCore - 1));
  }
}


unsigned long long tsim_mbox_mask(unsigned msg) { return mb.msgs[msg].mask; }

_Static_assert(sizeof ((TsimMbWire *)0)->words == sizeof ((Msg *)0)->words, "TsimMbWire holds a message");

void tsim_mbox_export(unsigned msg, TsimMbWire *w) {
  const Msg *m = &mb.msgs[msg];
  memcpy(w->words, m->words, sizeof w->words);
  w->mask = m->mask;
  w->flits = m->flits;
  w->src = m->src;
  mb.msgs[msg].next_free = mb.free_head;
  mb.free_head = (int)msg;
  mb.in_flight--;
}

unsigned tsim_mbox_import(const TsimMbWire *w) {
  int h = new_msg();
  Msg *m = &mb.msgs[h];
  memcpy(m->words, w->words, sizeof m->words);
  m->mask = w->mask;
  m->flits = w->flits;
  m->src = w->src;
  return (unsigned)h;
}

void tsim_mbox_stats_reduce(void (*or)(void *buf, size_t bytes), void (*sum)(long long *v, unsigned n)) {
  long long v[2] = {mb.in_flight, (long long)mb.captured};
  or(mb.tile, sizeof mb.tile);
  or(mb.router, sizeof mb.router);
  sum(v, 2);
  mb.in_flight = (int)v[0];
  mb.captured = (unsigned long long)v[1];
}

unsigned tsim_mbox_copy(unsigned msg, unsigned long long mask) {
  int h = new_msg();
  mb.msgs[h] = mb.msgs[msg];
  mb.msgs[h].mask = mask;
  mb.msgs[h].next_free = -2;
  return (unsigned)h;
}

void tsim_mbox_rewrite(unsigned msg, unsigned word, unsigned value, unsigned bits) {
  uint32_t *w = &mb.msgs[msg].words[word];
  *w = (*w & ~bits) | (value & bits);
}

void tsim_mbox_drop(unsigned msg) {
  mb.msgs[msg].mask = 0;
  tsim_mbox_deliver(msg, 0, 0);  /* an empty mask writes nothing */
}

void tsim_mbox_deliver(unsigned msg, unsigned tile, unsigned slot) {
  Msg *m = &mb.msgs[msg];
  if (m->mask)
    for (unsigned w = 0; w < m->flits * (TinselBytesPerFlit / 4); w++)
      tsim_mem_write(scratchpad_space(tile), slot * TinselBytesPerMsg + 4 * w, 4, m->words[w]);
  m->next_free = mb.free_head;
  mb.free_head = (int)msg;
  mb.in_flight--;
}

void tsim_mbox_stats(unsigned tile, unsigned long long sent, unsigned long long received,
                     unsigned long long deliveries, unsigned queue_max, unsigned pool_max, unsigned long long stalled,
                     int unfreed, unsigned in_idle, unsigned asleep) {
  if (tile >= NUM_TILES) return;
  mb.tile[tile].sent = sent;
  mb.tile[tile].received = received;
  mb.tile[tile].deliveries = deliveries;
  mb.tile[tile].queue_max = queue_max;
  mb.tile[tile].pool_max = pool_max;
  mb.tile[tile].stalled = stalled;
  mb.tile[tile].unfreed = unfreed;
  mb.tile[tile].in_idle = in_idle;
  mb.tile[tile].asleep = asleep;
}

void tsim_noc_stats(unsigned board_xy, unsigned r, unsigned long long hops, unsigned long long blocked,
                    unsigned buffered_max) {
  int b = tsim_board_of_addr(board_xy);
  unsigned router = (unsigned)b * TinselMailboxesPerBoard + r;
  if (b < 0 || router >= NUM_TILES) return;
  mb.router[router].hops = hops;
  mb.router[router].blocked = blocked;
  mb.router[router].buffered_max = buffered_max;
}

void tsim_mbox_print_stats(void) {
  unsigned long long sent = 0, received = 0, deliveries = 0, hops = 0;
  unsigned queue_max = 0, pool_max = 0;
  for (unsigned t = 0; t < tsim_boards() * TinselMailboxesPerBoard; t++) {
    fprintf(stderr, "tsim: %stile %u mailbox: sent %llu received %llu deliveries %llu queue-max %u pool-max %u "
            "stalled %llu unfreed %d asleep %u in-idle %u; router: hops %llu blocked %llu buffered-max %u\n",
            tsim_board_prefix(t / TinselMailboxesPerBoard), t % TinselMailboxesPerBoard, mb.tile[t].sent,
            mb.tile[t].received, mb.tile[t].deliveries, mb.tile[t].queue_max, mb.tile[t].pool_max,
            mb.tile[t].stalled, mb.tile[t].unfreed, mb.tile[t].asleep, mb.tile[t].in_idle, mb.router[t].hops, mb.router[t].blocked, mb.router[t].buffered_max);
    sent += mb.tile[t].sent;
    received += mb.tile[t].received;
    deliveries += mb.tile[t].deliveries;
    hops += mb.router[t].hops;
    if (mb.tile[t].queue_max > queue_max) queue_max = mb.tile[t].queue_max;
    if (mb.tile[t].pool_max > pool_max) pool_max = mb.tile[t].pool_max;
  }
  fprintf(stderr, "tsim: messages: sent %llu received %llu deliveries %llu hops %llu queue-max %u pool-max %u "
          "in-flight-max %d\n", sent, received, deliveries, hops, queue_max, pool_max, mb.max_in_flight);
}

void tsim_mbox_stats_file(FILE *f) {
  unsigned long long sent = 0, received = 0, deliveries = 0, hops = 0;
  for (unsigned t = 0; t < tsim_boards() * TinselMailboxesPerBoard; t++) {
    sent += mb.tile[t].sent;
    received += mb.tile[t].received;
    deliveries += mb.tile[t].deliveries;
    hops += mb.router[t].hops;
  }
  fprintf(f, "messages.sent %llu\nmessages.received %llu\nmessages.deliveries %llu\nmessages.hops %llu\n", sent,
          received, deliveries, hops);
}

/* ---------------------------------------------------------------- random delays */

/* --delay-seed: each mailbox holds every message it transmits for a random
   0..max extra cycles first. The mailbox transmits one message at a time, so
   a message never overtakes an earlier one from the same mailbox (per-pair
   order holds), while sources race differently per seed. One generator per
   mailbox (splitmix64), so a seed gives the same run every time. */
static struct { int on; unsigned max; uint64_t state[NUM_TILES]; } delay;

void tsim_mbox_set_delay(int on, unsigned long long seed, unsigned max) {
  delay.on = on;
  delay.max = max;
  for (unsigned t = 0; t < NUM_TILES; t++) delay.state[t] = seed ^ (0x9e3779b97f4a7c15ull * (t + 1));
}

svBit tsim_mbox_delay_on(void) { return (svBit)delay.on; }

unsigned tsim_mbox_delay(unsigned tile) {
  if (!delay.on || tile >= NUM_TILES) return 0;
  uint64_t z = (delay.state[tile] += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return (unsigned)(z % ((uint64_t)delay.max + 1));
}
