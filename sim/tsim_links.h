/* tsim_links.h: the inter-board links of a run of several boards
   (sim/tsim_links.c), driven by the harness (tsim_main.cpp) through the
   same per-board TsimLinkIO as the host link (tsim_hostlink.h). */
#ifndef TSIM_LINKS_H
#define TSIM_LINKS_H

#include "tsim_hostlink.h"

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
