/* fast_link.c: see fast_link.h. A message for the host leaves its mailbox
   into a queue that stands for the board router (BoardRouterLatency
   cycles, at most LINK_QUEUE messages, then back-pressure) and goes out
   through the West link when tsim_hostlink.c is ready for it; a message
   from the host enters its mailbox MacLatency cycles after the link took
   it (board_router.sv's latencies). */
#include "fast_link.h"

#include "Vtsim_top__Dpi.h"
#include "fast_mbox.h"
#include "tsim_boards.h"
#include "tsim_debuglink.h"
#include "tsim_progrouter.h"
#include "tsim_run.h"

#include <stdio.h>

enum { LINK_QUEUE = 16, LMB = TinselLogMailboxesPerBoard, LF = TinselLogMaxFlitsPerMsg };

static struct {
  struct { uint32_t dest, msg, len; unsigned long long at; } q[LINK_QUEUE];
  unsigned head, n;
} out;

static void not_modelled(unsigned tile, unsigned p, uint32_t dest, const char *what) {
  unsigned board = tile / TinselMailboxesPerBoard;
  fprintf(stderr, "tsim: board %u, core %u, thread %u: message to mailbox address 0x%08x (%s): the fast engine "
          "does not model links between boards yet; use --engine cycle\n", board,
          (tile % TinselMailboxesPerBoard) * TinselCoresPerMailbox + p / TinselThreadsPerCore,
          p % TinselThreadsPerCore, dest, what);
  tsim_stop = TSIM_STOP_HALT;
}

/* Without --hostlink the message still goes West: tsim_hostlink.c stops the
   run there (no host connected), as on the cycle model. */
/* A keyed message MSG (LEN flits - 1) reaches board BOARD's router at input
   F at cycle AT: tsim_progrouter.c looks its key up in DRAM; each message
   the lookup makes for this board's mesh enters its mailbox when its beat
   has been read. A record for a link (another board) is not modelled. */
static void route_key(FastRun *r, unsigned board, unsigned f, unsigned msg, unsigned len, unsigned long long at) {
  unsigned xy = tsim_board_addr(board), n;
  if (tsim_pr_lookup(xy, f, msg, &n)) return;  /* a malformed table: said, halted */
  for (unsigned k = 0; k < n; k++) {
    unsigned port, dest, m, when;
    tsim_pr_out(xy, f, k, &port, &dest, &m, &when);
    if (port != TSIM_PR_NOC) {
      fprintf(stderr, "tsim: board %u router: a routing record sends a message over link %u (another board): the "
              "fast engine does not model links between boards yet; use --engine cycle\n", board, port);
      tsim_stop = TSIM_STOP_HALT;
      return;
    }
    fast_mbox_push(r, board * TinselMailboxesPerBoard + dest % TinselMailboxesPerBoard, m, len, at + when);
    tsim_pr_sent(xy);
  }
}

int fast_link_send(FastRun *r, unsigned tile, unsigned p, uint32_t dest) {
  unsigned board = tile / TinselMailboxesPerBoard, above = dest >> LMB, me = tsim_board_addr(board);
  unsigned yb = TinselMeshXBits + TinselMeshYBits;
  if (above >> (yb + 2) & 1) {  /* a routing key: through the column's rim link to the router */
    unsigned col = tile % TinselMailboxesPerBoard % TinselMailboxMeshXLen;
    route_key(r, board, 4 + col, fast_mbox_capture(r, tile, p), fast_mbox_len(r, tile, p),
              r->cycle + TinselBoardRouterLatency);
    return 1;
  }
  unsigned ymask = (1u << TinselMeshYBits) - 1;
  if ((above >> TinselMeshXBits & ymask) != (me >> TinselMeshXBits & ymask) || !(above >> (yb + 1) & 1)) {
    not_modelled(tile, p, dest, "another board");
    return -1;
  }
  if ((above >> yb & 1) || board != 0) {
    not_modelled(tile, p, dest, "the host, through another board");
    return -1;
  }
  if (out.n == LINK_QUEUE) return 0;
  unsigned i = (out.head + out.n++) % LINK_QUEUE;
  out.q[i].dest = dest;
  out.q[i].msg = fast_mbox_capture(r, tile, p);
  out.q[i].len = fast_mbox_len(r, tile, p);
  out.q[i].at = r->cycle + TinselBoardRouterLatency;
  return 1;
}

int fast_link_edge(FastRun *r, TsimLinkIO *io) {
  const unsigned w = 1u << TSIM_LINK_W;
  int moved = 0;
  io->in_taken = io->out_taken = 0;
  if (out.n && out.q[out.head].at <= r->cycle && (io->out_ready & w)) {
    io->out_taken = w;
    io->out_dest[TSIM_LINK_W] = out.q[out.head].dest;
    io->out_msg[TSIM_LINK_W] = out.q[out.head].msg;
    io->out_lens = out.q[out.head].len << (TSIM_LINK_W * LF);
    out.head = (out.head + 1) % LINK_QUEUE;
    out.n--;
    moved = 1;
  }
  if (io->in_valid & w) {
    uint32_t dest = io->in_dest[TSIM_LINK_W];
    unsigned len = io->in_lens >> (TSIM_LINK_W * LF) & ((1u << LF) - 1);
    if (dest >> (LMB + TinselMeshXBits + TinselMeshYBits + 2) & 1) {
      route_key(r, 0, TSIM_LINK_W, io->in_msg[TSIM_LINK_W], len, r->cycle + TinselMacLatency);
      io->in_taken = w;
      moved = 1;
    } else if (dest >> LMB != tsim_board_addr(0)) {
      not_modelled(0, 0, dest, "from the host, for another board");
    } else if (fast_mbox_inject(r, dest % TinselMailboxesPerBoard, io->in_msg[TSIM_LINK_W], len,
                                r->cycle + TinselMacLatency) == 0) {
      io->in_taken = w;
      moved = 1;
    }
  }
  return moved;
}
