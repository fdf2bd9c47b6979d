/* tsim_links.c: inter-board links between the board models of one run
   (tinsel.md §3.2): per board and direction a bounded FIFO of whole
   messages toward the neighbour. A message occupies the wire for
   LinkCyclesPerFlit cycles per flit (a padded flit at the 10G line rate,
   boards/) and may leave the far end when its last flit is there; the
   receiving board router adds MacLatency (board_router.sv). A full FIFO
   back-pressures the sending board router; nothing is dropped, and the
   FIFO keeps each source-destination pair in order.

   The fast engine split over MPI ranks (sim/fast/fast_mpi.c) sets
   tsim_links_set_timing: the receiving router's MacLatency counted on the
   link instead (EXTRA), and a slot the receiver frees reaching the sender
   CREDIT cycles later, so that nothing a board does reaches another board
   sooner than the link latency; then each link's FIFO is split between
   the sender's copy (what it sent, shipped at the end of each window:
   tsim_links_export) and the receiver's (what arrived: tsim_links_import),
   and the receiver's freed slots go back the same way. */
#include "tsim_links.h"

#include "tinsel_config.h"
#include "tsim_boards.h"

#include <stdio.h>

enum { CAP = TinselLinkBufferMsgs, CPF = TinselLinkCyclesPerFlit, LF = TinselLogMaxFlitsPerMsg };

typedef struct {
  uint32_t dest[CAP], msg[CAP];
  unsigned len[CAP];
  unsigned long long arrive[CAP];
  unsigned head, count;
  unsigned held;  /* the sender's count: sent and not yet given back (back-pressure) */
  unsigned long long freed[CAP];  /* cycles at which the receiver took messages, not yet given back */
  unsigned fhead, fcount;
  unsigned long long wire_free;  /* the wire is busy until this cycle */
} Link;

/* Statistics apart, so that tsim_links_stats_reduce can gather them. */
typedef struct { unsigned long long msgs, flits, max; } LinkStats;

static Link links[TSIM_MAX_BOARDS][TSIM_LINKS];  /* [sending board][direction] */
static LinkStats stats[TSIM_MAX_BOARDS][TSIM_LINKS];
static unsigned in_flight;  /* messages in this process's FIFOs plus slots not yet given back */
static unsigned extra_latency, credit_delay;

void tsim_links_set_timing(unsigned extra, unsigned credit) {
  extra_latency = extra;
  credit_delay = credit;
}

static const char *const dir_name[] = {"north", "south", "east", "west"};
static const unsigned opposite[] = {TSIM_LINK_S, TSIM_LINK_N, TSIM_LINK_W, TSIM_LINK_E};

unsigned tsim_links_neighbours(unsigned b) {
  unsigned m = 0;
  for (unsigned d = 0; d < TSIM_LINKS; d++)
    if (tsim_board_next(b, d) >= 0) m |= 1u << d;
  return m;
}

unsigned tsim_links_in_flight(void) { return in_flight; }

static unsigned field(unsigned lens, unsigned d) { return lens >> (d * LF) & ((1u << LF) - 1); }

void tsim_links_cycle_board(unsigned b, TsimLinkIO *io, unsigned long long now) {
  for (unsigned d = 0; d < TSIM_LINKS; d++) {
    int n = tsim_board_next(b, d);
    if (n < 0) continue;
    Link *out = &links[b][d], *in = &links[n][opposite[d]];  /* the neighbour's link toward b */
    while (out->fcount && out->freed[out->fhead] + credit_delay <= now) {  /* slots given back */
      out->fhead = (out->fhead + 1) % CAP;
      out->fcount--;
      out->held--;
      in_flight--;
    }
    if (io->out_taken >> d & 1) {
      unsigned long long start = now > out->wire_free ? now : out->wire_free;
      unsigned i = (out->head + out->count) % CAP, len = field(io->out_lens, d);
      LinkStats *st = &stats[b][d];
      out->wire_free = start + (unsigned long long)(len + 1) * CPF;
      out->dest[i] = io->out_dest[d];
      out->msg[i] = io->out_msg[d];
      out->len[i] = len;
      out->arrive[i] = out->wire_free + extra_latency;
      out->count++;
      if (++out->held > st->max) st->max = out->held;
      st->msgs++;
      st->flits += len + 1;
      in_flight++;
    }
    if (io->in_taken >> d & 1) {
      in->head = (in->head + 1) % CAP;
      in->count--;
      if (credit_delay) {  /* the sender sees the slot free credit_delay cycles later */
        in->freed[(in->fhead + in->fcount++) % CAP] = now;
        in_flight++;
      } else {
        in->held--;
      }
      in_flight--;
    }
    unsigned bit = 1u << d;
    io->in_valid &= ~bit;
    io->in_lens &= ~(((1u << LF) - 1) << (d * LF));
    if (in->count && in->arrive[in->head] <= now) {
      io->in_valid |= bit;
      io->in_dest[d] = in->dest[in->head];
      io->in_msg[d] = in->msg[in->head];
      io->in_lens |= in->len[in->head] << (d * LF);
    }
    io->out_ready = (io->out_ready & ~bit) | (out->held < CAP ? bit : 0);  /* back-pressure */
  }
}

void tsim_links_print_stats(unsigned long long cycles) {
  double c = cycles ? (double)cycles : 1.0;
  for (unsigned b = 0; b < tsim_boards(); b++)
    for (unsigned d = 0; d < TSIM_LINKS; d++) {
      int n = tsim_board_next(b, d);
      if (n < 0) continue;
      const LinkStats *l = &stats[b][d];
      fprintf(stderr, "tsim: link board %u %s -> board %d: messages %llu flits %llu flits/cycle %.4f "
              "utilisation %.1f%% buffered-max %llu\n", b, dir_name[d], n, l->msgs, l->flits, (double)l->flits / c,
              100.0 * (double)(l->flits * CPF) / c, l->max);
    }
}

unsigned long long tsim_links_flits(unsigned b, unsigned d, int in) {
  if (b >= tsim_boards() || d >= TSIM_LINKS) return 0;
  if (!in) return tsim_board_next(b, d) >= 0 ? stats[b][d].flits : 0;
  int n = tsim_board_next(b, d);   /* what came in from direction d left n toward b */
  return n >= 0 ? stats[n][opposite[d]].flits : 0;
}

unsigned tsim_links_export(unsigned b, unsigned d, TsimLinkMsg *out) {
  Link *l = &links[b][d];
  unsigned n = 0;
  for (; l->count; n++) {
    out[n] = (TsimLinkMsg){l->dest[l->head], l->msg[l->head], l->len[l->head], l->arrive[l->head]};
    l->head = (l->head + 1) % CAP;
    l->count--;
    in_flight--;
  }
  return n;
}

void tsim_links_import(unsigned b, unsigned d, const TsimLinkMsg *m, unsigned n) {
  Link *l = &links[b][d];
  for (unsigned k = 0; k < n && l->count < CAP; k++) {
    unsigned i = (l->head + l->count++) % CAP;
    l->dest[i] = m[k].dest;
    l->msg[i] = m[k].msg;
    l->len[i] = m[k].len;
    l->arrive[i] = m[k].arrive;
    in_flight++;
  }
}

unsigned tsim_links_export_freed(unsigned b, unsigned d, unsigned long long *at) {
  Link *l = &links[b][d];
  unsigned n = 0;
  for (; l->fcount; n++) {
    at[n] = l->freed[l->fhead];
    l->fhead = (l->fhead + 1) % CAP;
    l->fcount--;
    in_flight--;
  }
  return n;
}

void tsim_links_import_freed(unsigned b, unsigned d, const unsigned long long *at, unsigned n) {
  Link *l = &links[b][d];
  for (unsigned k = 0; k < n && l->fcount < CAP; k++) {
    l->freed[(l->fhead + l->fcount++) % CAP] = at[k];
    in_flight++;
  }
}

void tsim_links_stats_reduce(void (*reduce)(void *buf, size_t bytes)) { reduce(stats, sizeof stats); }
