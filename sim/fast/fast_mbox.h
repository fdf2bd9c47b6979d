/* fast_mbox.h: the fast engine's mailboxes (fast_mbox.c): the bookkeeping
   of rtl_models/mbox.sv (send slots, SendLen/SendPtr/SendDest, the
   reference-counted receive pool, per-thread pointer queues, WaitUntil,
   idle detection) and a mesh without contention: a message reaches its
   mailbox a fixed number of cycles per hop after it leaves, in order per
   destination. Contents live in tsim_mbox.c's store, as for the models. */
#ifndef FAST_MBOX_H
#define FAST_MBOX_H

#include "fast_engine.h"

/* A core's request, registered at issue and seen by the mailbox next cycle. */
typedef struct {
  int valid, send, wants;
  unsigned core, tid, csr;  /* core within the tile */
  uint32_t wd, wd2;
} FastMbReq;

/* Allocate and free every tile's mailbox (r->tiles set). 0 or -1 (out of memory). */
int fast_mbox_init(FastRun *r);
void fast_mbox_free(FastRun *r);
/* Register a core's request for the mailbox of tile TILE. */
void fast_mbox_request(FastRun *r, unsigned tile, const FastMbReq *q);
/* Whether tile TILE's mailbox has anything to do this cycle. */
int fast_mbox_tile_busy(const FastRun *r, unsigned tile);
/* Clock tile TILE's mailbox for cycle r->cycle (after its cores). */
void fast_mbox_step(FastRun *r, unsigned tile);
/* Capture thread P's pending message (tsim_mbox.c's store): its handle;
   and its flits - 1. */
unsigned fast_mbox_capture(FastRun *r, unsigned tile, unsigned p);
unsigned fast_mbox_len(const FastRun *r, unsigned tile, unsigned p);
/* A message from outside the mesh (the host link) for tile TILE (run-wide),
   arriving at cycle AT: 0, or -1 when the mesh toward it is full. */
int fast_mbox_inject(FastRun *r, unsigned tile, unsigned msg, unsigned len, unsigned long long at);
/* The same without the limit (what a routing-key lookup made). */
void fast_mbox_push(FastRun *r, unsigned tile, unsigned msg, unsigned len, unsigned long long at);
/* No thread of tile TILE waits for its mailbox (WaitUntil, an answer, idle
   detection) and no request is on its way: the tile's cores may run ahead. */
int fast_mbox_no_waits(const FastRun *r, unsigned tile);
/* After every tile: idle detection over the run (release next cycle). */
void fast_mbox_idle(FastRun *r);
/* This process's part of it: every thread of its tiles in tinselIdle,
   every one voted, and its messages in flight (sent minus received here;
   the sum over the ranks is the run's). */
void fast_mbox_idle_here(const FastRun *r, int *idle, int *voted, long long *inflight);
/* Non-zero while a mailbox has work or a message is on its way. */
int fast_mbox_busy(const FastRun *r);
/* End of run: statistics and what each thread waits for. */
void fast_mbox_final(FastRun *r);

#endif
