/* fast_link.c: see fast_link.h. Each board's router is a queue per link
   (N, S, E, W): a message from the mesh waits BoardRouterLatency cycles in
   it (at most LINK_QUEUE such messages, then the sender's mailbox waits),
   one from a link MacLatency cycles; it leaves when its link is ready
   (tsim_hostlink.c for board 0's West side and sides toward nothing,
   tsim_links.c between boards). Routing as board_router.sv: Y first, then
   the host bit, then X; keys are looked up by tsim_progrouter.c, and what
   a lookup makes goes to this board's mailboxes or out over a link. */
#include "fast_link.h"

#include "Vtsim_top__Dpi.h"
#include "fast_mbox.h"
#include "tsim_boards.h"
#include "tsim_progrouter.h"
#include "tsim_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LINK_QUEUE = 16, LMB = TinselLogMailboxesPerBoard, LF = TinselLogMaxFlitsPerMsg, LOCAL = TSIM_LINKS };
enum { XB = TinselMeshXBits, YB = TinselMeshYBits };

typedef struct { uint32_t dest, msg, len; unsigned long long at; } Out;
typedef struct { Out *q; unsigned head, n, cap; } Queue;

static Queue outq[TSIM_MAX_BOARDS][TSIM_LINKS];

static void push(Queue *q, uint32_t dest, unsigned msg, unsigned len, unsigned long long at) {
  Out *nq = fast_queue_room(q->q, &q->head, q->n, &q->cap, sizeof *q->q);
  if (!nq) {
    fprintf(stderr, "tsim: fast engine: out of memory for a board router queue (%u messages)\n", q->n);
    exit(70);
  }
  q->q = nq;
  q->q[q->head + q->n++] = (Out){dest, msg, len, at};
}

/* The link of board B toward mailbox address DEST (board_router.sv), or LOCAL. */
static unsigned route(unsigned b, uint32_t dest) {
  unsigned above = dest >> LMB, me = tsim_board_addr(b);
  unsigned bx = above & ((1u << XB) - 1), by = above >> XB & ((1u << YB) - 1);
  unsigned mx = me & ((1u << XB) - 1), my = me >> XB & ((1u << YB) - 1);
  if (by < my) return TSIM_LINK_S;
  if (by > my) return TSIM_LINK_N;
  if (above >> (XB + YB + 1) & 1) return above >> (XB + YB) & 1 ? TSIM_LINK_E : TSIM_LINK_W;
  if (bx < mx) return TSIM_LINK_W;
  if (bx > mx) return TSIM_LINK_E;
  return LOCAL;
}

static int is_key(uint32_t dest) { return dest >> (LMB + XB + YB + 2) & 1; }

/* A keyed message MSG (LEN flits - 1) reaches board BOARD's router at input
   F at cycle AT: tsim_progrouter.c looks its key up in DRAM; each message
   the lookup makes enters a mailbox of this board or a link's queue when
   its beat has been read. */
static void route_key(FastRun *r, unsigned board, unsigned f, unsigned msg, unsigned len, unsigned long long at) {
  unsigned xy = tsim_board_addr(board), n;
  if (tsim_pr_lookup(xy, f, msg, &n)) return;  /* a malformed table: said, halted */
  for (unsigned k = 0; k < n; k++) {
    unsigned port, dest, m, when;
    tsim_pr_out(xy, f, k, &port, &dest, &m, &when);
    if (port == TSIM_PR_NOC) fast_mbox_push(r, board * TinselMailboxesPerBoard + dest % TinselMailboxesPerBoard, m, len, at + when);
    else push(&outq[board][port % TSIM_LINKS], dest, m, len, at + when);
    tsim_pr_sent(xy);
  }
}

/* Without --hostlink a message for the host still goes West:
   tsim_hostlink.c stops the run there (no host connected), as on the
   cycle model. */
int fast_link_send(FastRun *r, unsigned tile, unsigned p, uint32_t dest) {
  unsigned board = tile / TinselMailboxesPerBoard;
  if (is_key(dest)) {  /* through the column's rim link to the router */
    unsigned col = tile % TinselMailboxesPerBoard % TinselMailboxMeshXLen;
    route_key(r, board, 4 + col, fast_mbox_capture(r, tile, p), fast_mbox_len(r, tile, p),
              r->cycle + TinselBoardRouterLatency);
    return 1;
  }
  unsigned d = route(board, dest);
  if (d == LOCAL) d = TSIM_LINK_S;  /* cannot happen: the mailbox sent it off the mesh */
  Queue *q = &outq[board][d];
  if (q->n >= LINK_QUEUE) return 0;
  push(q, dest, fast_mbox_capture(r, tile, p), fast_mbox_len(r, tile, p), r->cycle + TinselBoardRouterLatency);
  return 1;
}

/* A message arriving at board B over link D: 1 taken, 0 no room yet. */
static int arrive(FastRun *r, unsigned b, unsigned d, uint32_t dest, unsigned msg, unsigned len) {
  /* Windowed (fast_mpi.c), a link from another board has counted MacLatency already. */
  unsigned long long at = r->cycle + (r->windowed && tsim_board_next(b, d) >= 0 ? 0 : TinselMacLatency);
  if (is_key(dest)) {
    route_key(r, b, d, msg, len, at);
    return 1;
  }
  unsigned o = route(b, dest);
  if (o == LOCAL) return fast_mbox_inject(r, b * TinselMailboxesPerBoard + dest % TinselMailboxesPerBoard, msg, len, at) == 0;
  if (outq[b][o].n >= LINK_QUEUE) return 0;
  push(&outq[b][o], dest, msg, len, at);
  return 1;
}

int fast_link_edge(FastRun *r, TsimLinkIO *io, unsigned nb) {
  int moved = 0;
  for (unsigned b = r->board_lo; b < nb && b < r->board_hi; b++) {
    TsimLinkIO *l = &io[b];
    l->in_taken = l->out_taken = 0;
    l->out_lens = 0;
    for (unsigned d = 0; d < TSIM_LINKS; d++) {
      Queue *q = &outq[b][d];
      if (q->n && q->q[q->head].at <= r->cycle && (l->out_ready >> d & 1)) {
        l->out_taken |= 1u << d;
        l->out_dest[d] = q->q[q->head].dest;
        l->out_msg[d] = q->q[q->head].msg;
        l->out_lens |= q->q[q->head].len << (d * LF);
        q->head++;
        if (--q->n == 0) q->head = 0;
        moved = 1;
      }
      if ((l->in_valid >> d & 1) &&
          arrive(r, b, d, l->in_dest[d], l->in_msg[d], l->in_lens >> (d * LF) & ((1u << LF) - 1))) {
        l->in_taken |= 1u << d;
        moved = 1;
      }
    }
  }
  return moved;
}

int fast_link_busy(void) {
  for (unsigned b = 0; b < tsim_boards(); b++)
    for (unsigned d = 0; d < TSIM_LINKS; d++)
      if (outq[b][d].n) return 1;
  return 0;
}

void fast_link_free(void) {
  for (unsigned b = 0; b < TSIM_MAX_BOARDS; b++)
    for (unsigned d = 0; d < TSIM_LINKS; d++) {
      free(outq[b][d].q);
      memset(&outq[b][d], 0, sizeof outq[b][d]);
    }
}
