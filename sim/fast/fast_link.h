/* fast_link.h: the fast engine's board routers and links (fast_link.c):
   keys, messages between boards (tsim_links.c) and the host link of board
   0's West side (tsim_hostlink.c: --hostlink, --debuglink). */
#ifndef FAST_LINK_H
#define FAST_LINK_H

#include "fast_engine.h"
#include "tsim_hostlink.h"

/* A message from tile TILE's thread P to mailbox address DEST off the
   mesh (a key, another board, the host): 1 taken by the board router, 0
   no room yet (the mailbox waits). The message is captured when taken. */
int fast_link_send(FastRun *r, unsigned tile, unsigned p, uint32_t dest);
/* Before clocking cycle r->cycle: what moves on the NB boards' links at
   this edge (IO as tsim_links_cycle and tsim_links_cycle_board left it).
   Non-zero when a message moved. */
int fast_link_edge(FastRun *r, TsimLinkIO *io, unsigned nb);
/* Messages wait in a board router's queues. */
int fast_link_busy(void);
void fast_link_free(void);

#endif
