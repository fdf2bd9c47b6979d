/* fast_link.h: the fast engine's host link (fast_link.c): board 0's West
   link as tsim_hostlink.c serves it (--hostlink, --debuglink), without the
   board router's other work (keys, other boards). */
#ifndef FAST_LINK_H
#define FAST_LINK_H

#include "fast_engine.h"
#include "tsim_hostlink.h"

/* A message from tile TILE's thread P to mailbox address DEST off the
   mesh: 1 queued for the host, 0 no room yet (the mailbox waits), -1 not
   modelled (said; the run halts). MSG is captured only when queued. */
int fast_link_send(FastRun *r, unsigned tile, unsigned p, uint32_t dest);
/* Before clocking cycle r->cycle: what moves on the West link at this edge
   (IO as tsim_links_cycle left it). Non-zero when a message moved. */
int fast_link_edge(FastRun *r, TsimLinkIO *io);

#endif
