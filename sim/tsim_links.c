/* tsim_links.c: inter-board links between the board models of one run
   (tinsel.md §3.2): per board and direction a bounded FIFO of whole
   messages toward the neighbour. A message occupies the wire for
   LinkCyclesPerFlit cycles per flit (a padded flit at the 10G line rate,
   boards/) and may leave the far end when its last flit is there; the
   receiving board router adds MacLatency (board_router.sv). A full FIFO
   back-pressures the sending board router; nothing is dropped, and the
   FIFO keeps each source-destination pair in order. */
#include "tsim_links.h"

#include "tinsel_config.h"
#include "tsim_boards.h"

#include <stdio.h>

enum { CAP = TinselLinkBufferMsgs, CPF = TinselLinkCyclesPerFlit, LF = TinselLogMaxFlitsPerMsg };

typedef struct {
  uint32_t dest[CAP], msg[CAP];
  unsigned len[CAP];
  unsigned long long arrive[CAP];
  unsigned head, count, max;
  unsigned long long wire_free;  /* the wire is busy until this cycle */
  unsigned long long msgs, flits;
} Link;

static Link links[TSIM_MAX_BOARDS][TSIM_LINKS];  /* [sending board][direction] */
static unsigned in_flight;

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
    if (io->out_taken >> d & 1) {
      unsigned long long start = now > out->wire_free ? now : out->wire_free;
      unsigned i = (out->head + out->count) % CAP, len = field(io->out_lens, d);
      out->wire_free = start + (unsigned long long)(len + 1) * CPF;
      out->dest[i] = io->out_dest[d];
      out->msg[i] = io->out_msg[d];
      out->len[i] = len;
      out->arrive[i] = out->wire_free;
      if (++out->count > out->max) out->max = out->count;
      out->msgs++;
      out->flits += len + 1;
      in_flight++;
    }
    if (io->in_taken >> d & 1) {
      in->head = (in->head + 1) % CAP;
      in->count--;
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
    io->out_ready = (io->out_ready & ~bit) | (out->count < CAP ? bit : 0);  /* back-pressure */
  }
}

void tsim_links_print_stats(unsigned long long cycles) {
  double c = cycles ? (double)cycles : 1.0;
  for (unsigned b = 0; b < tsim_boards(); b++)
    for (unsigned d = 0; d < TSIM_LINKS; d++) {
      int n = tsim_board_next(b, d);
      if (n < 0) continue;
      const Link *l = &links[b][d];
      fprintf(stderr, "tsim: link board %u %s -> board %d: messages %llu flits %llu flits/cycle %.4f "
              "utilisation %.1f%% buffered-max %u\n", b, dir_name[d], n, l->msgs, l->flits, (double)l->flits / c,
              100.0 * (double)(l->flits * CPF) / c, l->max);
    }
}

unsigned long long tsim_links_flits(unsigned b, unsigned d, int in) {
  if (b >= tsim_boards() || d >= TSIM_LINKS) return 0;
  if (!in) return tsim_board_next(b, d) >= 0 ? links[b][d].flits : 0;
  int n = tsim_board_next(b, d);   /* what came in from direction d left n toward b */
  return n >= 0 ? links[n][opposite[d]].flits : 0;
}
