/* tsim_links.h: the inter-board links of a run of several boards
   (sim/tsim_links.c), driven by the harness (tsim_main.cpp) through the
   same per-board TsimLinkIO as the host link (tsim_hostlink.h). */
#ifndef TSIM_LINKS_H
#define TSIM_LINKS_H

#include "tsim_hostlink.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The directions (1 << TSIM_LINK_*) in which board B has a neighbour. */
unsigned tsim_links_neighbours(unsigned b);

/* Messages on all inter-board links (the harness polls only while some are). */
unsigned tsim_links_in_flight(void);

/* After a clock edge, board B's links toward its neighbours (the bits of
   tsim_links_neighbours): put what left on the edge onto its link, drop
   what the board took, offer each link's next arrived message and say
   which links have room. Fields of other directions are left alone. */
void tsim_links_cycle_board(unsigned b, TsimLinkIO *io, unsigned long long cycle);


/* The fast engine over MPI ranks (sim/fast/fast_mpi.c): count the
   receiving router's latency EXTRA on the link, and give a slot the
   receiver takes back to the sender CREDIT cycles later (0, 0: as before,
   what the cycle models use). */
void tsim_links_set_timing(unsigned extra, unsigned credit);

/* One message on a link, as it crosses between ranks. */
typedef struct { uint32_t dest, msg, len; unsigned long long arrive; } TsimLinkMsg;
/* The sender's side of board B's link D: take what it sent (at most
   LinkBufferMsgs) into OUT; their number. */
unsigned tsim_links_export(unsigned b, unsigned d, TsimLinkMsg *out);
/* The receiver's side: append N messages another rank's export gave. */
void tsim_links_import(unsigned b, unsigned d, const TsimLinkMsg *m, unsigned n);
/* The receiver's side: the cycles at which it took messages, not yet
   given back (at most LinkBufferMsgs), into AT; and the sender's side
   takes them in. */
unsigned tsim_links_export_freed(unsigned b, unsigned d, unsigned long long *at);
void tsim_links_import_freed(unsigned b, unsigned d, const unsigned long long *at, unsigned n);
/* Gather the per-link statistics: REDUCE combines the bytes of every rank's
   (each link is counted by one rank only, the others hold zeros). */
void tsim_links_stats_reduce(void (*reduce)(void *buf, size_t bytes));

/* Per-link statistics (stderr): messages, flits, flits per cycle, wire
   utilisation, most messages buffered. */
void tsim_links_print_stats(unsigned long long cycles);
/* Flits board B sent (IN 0) or received (IN 1) over its link in direction
   D to a joined neighbour; 0 where there is none (the statistics file
   adds them to the host link's counts, tsim_hostlink.c). */
unsigned long long tsim_links_flits(unsigned b, unsigned d, int in);

#ifdef __cplusplus
}
#endif
#endif
