/* fast_mbox.c: see fast_mbox.h. The mailbox follows rtl_models/mbox.sv
   step by step (same requests, errors, pool, queues, wake-ups and answer
   order); the mesh is an estimate: a message transmitted in cycle k
   reaches its mailbox's input in cycle k + 3 + (hops + 1) * MeshHopLatency
   (no router contention), and no earlier than the one before it to the
   same mailbox. Messages for another board, the host or a routing key are
   not modelled yet: the run halts saying so. */
#include "fast_mbox.h"

#include "Vtsim_top__Dpi.h"
#include "fast_link.h"
#include "tsim_hostlink.h"
#include "tsim_progrouter.h"
#include "tsim_boards.h"
#include "tsim_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  TM = TinselThreadsPerMailbox, NS = TinselMsgsPerMailbox, QN = 1 << TinselLogMsgPtrQueueSize,
  LMB = TinselLogMailboxesPerBoard, XL = TinselMailboxMeshXLen
};
enum { ERR_SEND_BUSY = 1, ERR_RECV_EMPTY = 2, ERR_FREE_SLOT = 3, ERR_DEST = 4, ERR_WAIT_NONE = 5 };
_Static_assert(TM <= 64 && NS > TM, "mailbox: at most 64 threads and more slots than threads");

typedef struct { unsigned msg, len; unsigned long long at; } Flight;

typedef struct FastMbox {
  int live;                     /* had work at the end of its last step (first: read every cycle) */
  uint64_t wait_idle;
  FastMbReq req, req_in;
  uint32_t s_dest[TM], s_slot[TM], s_len[TM], s_mhi[TM], s_mlo[TM], resp_val[TM];
  uint64_t send_pend, q_full, q_nonempty, wait_send, wait_recv, vote, resp_pend;
  uint16_t free_stack[NS], rq[TM * QN];
  uint8_t refc[NS];
  unsigned free_top, pool_n, pool_fixed, rq_head[TM], rq_count[TM], tx_last;
  unsigned long long tx_free_at, rx_free_at, last_arrival;
  int tx_delayed, rx_have, in_ready, inflight;
  unsigned rx_msg, rx_len;
  uint64_t rx_mask;
  Flight *inq;                  /* messages on their way here, in arrival order */
  unsigned inq_head, inq_n, inq_cap;
  unsigned long long n_sent, n_recv, n_deliv, n_stall;
  unsigned q_max, pool_max;
} FastMbox;

int fast_mbox_init(FastRun *r) {
  r->mbox = calloc(r->ntiles, sizeof *r->mbox);
  if (!r->mbox) return -1;
  for (unsigned t = 0; t < r->ntiles; t++) {
    FastMbox *m = &r->mbox[t];
    for (unsigned s = 0; s < NS - TM; s++) m->free_stack[s] = (uint16_t)(NS - 1 - s);
    m->free_top = m->pool_n = NS - TM;
    m->tx_last = TM - 1;
    m->in_ready = 1;
  }
  return 0;
}

void fast_mbox_free(FastRun *r) {
  for (unsigned t = 0; r->mbox && t < r->ntiles; t++) free(r->mbox[t].inq);
  free(r->mbox);
  r->mbox = NULL;
}

void fast_mbox_request(FastRun *r, unsigned tile, const FastMbReq *q) {
  r->mbox[tile].req_in = *q;
  r->mbox[tile].live = 1;
}

/* Wake threads WHO with answer V (WaitUntil, or a deferred read). */
static void wake(FastMbox *m, uint64_t who, uint32_t v) {
  m->resp_pend |= who;
  for (unsigned t = 0; t < TM; t++)
    if (who >> t & 1) m->resp_val[t] = v;
  m->wait_send &= ~who;
  m->wait_recv &= ~who;
  m->wait_idle &= ~who;
  m->vote &= ~who;
}

static uint32_t recv(FastMbox *m, unsigned tile, unsigned t) {
  if (!(m->q_nonempty >> t & 1)) {
    tsim_mbox_error(tile, t, ERR_RECV_EMPTY, 0);
    return 0;
  }
  uint32_t v = (uint32_t)m->rq[t * QN + m->rq_head[t]] << TinselLogBytesPerMsg;
  m->rq_head[t] = (m->rq_head[t] + 1) % QN;
  m->rq_count[t]--;
  m->q_full &= ~(1ull << t);
  if (m->rq_count[t] == 0) m->q_nonempty &= ~(1ull << t);
  return v;
}

static void free_slot(FastMbox *m, unsigned tile, unsigned t, uint32_t wd) {
  unsigned slot = (wd >> TinselLogBytesPerMsg) & (NS - 1);
  if (slot < TM || m->refc[slot] == 0) {
    tsim_mbox_error(tile, t, ERR_FREE_SLOT, wd);
    return;
  }
  if (--m->refc[slot] == 0) m->free_stack[m->free_top++] = (uint16_t)slot;
  m->inflight--;
}

/* WaitUntil: answer at once, or sleep (returns 0: no answer now). */
static int wait_until(FastMbox *m, unsigned tile, unsigned t, uint32_t wd) {
  uint64_t b = 1ull << t;
  if ((wd & 15) == 0) {
    tsim_mbox_error(tile, t, ERR_WAIT_NONE, wd);
    return 1;
  }
  if (((wd & 1) && !(m->send_pend & b)) || ((wd & 2) && (m->q_nonempty & b))) return 1;
  if (wd & 1) m->wait_send |= b;
  if (wd & 2) m->wait_recv |= b;
  if (wd & 12) m->wait_idle |= b;
  if (wd & 8) m->vote |= b;
  return 0;
}

static void do_send(FastMbox *m, unsigned tile, unsigned t, const FastMbReq *q) {
  if (m->send_pend >> t & 1) {
    tsim_mbox_error(tile, t, ERR_SEND_BUSY, 0);
    return;
  }
  m->send_pend |= 1ull << t;
  m->s_mhi[t] = q->wd;
  m->s_mlo[t] = q->wd2;
  m->inflight += (m->s_dest[t] & TinselMailboxRoutingKey) ? 1 : fast_popcount64((uint64_t)q->wd << 32 | q->wd2);
  m->n_sent++;
}

static void request(FastMbox *m, unsigned tile, const FastMbReq *q) {
  unsigned t = q->core * TinselThreadsPerCore + q->tid;
  uint32_t rv = 0;
  int answer = q->wants;
  if (q->send) {
    do_send(m, tile, t, q);
    return;
  }
  switch (q->csr) {
  case TinselCsrSendLen: m->s_len[t] = q->wd & ((1u << TinselLogMaxFlitsPerMsg) - 1); break;
  case TinselCsrSendPtr: m->s_slot[t] = (q->wd >> TinselLogBytesPerMsg) & (NS - 1); break;
  case TinselCsrSendDest: m->s_dest[t] = q->wd; break;
  case TinselCsrCanSend: rv = !(m->send_pend >> t & 1); break;
  case TinselCsrCanRecv: rv = (uint32_t)(m->q_nonempty >> t & 1); break;
  case TinselCsrRecv: rv = recv(m, tile, t); break;
  case TinselCsrFree: free_slot(m, tile, t, q->wd); break;
  case TinselCsrWaitUntil: if (!wait_until(m, tile, t, q->wd)) answer = 0; break;
  case TinselCsrFromUart: rv = tsim_uart_get(tile, t); break;
  default: break;
  }
  if (answer) {
    m->resp_pend |= 1ull << t;
    m->resp_val[t] = rv;
  }
}

static int push_flight(FastMbox *d, unsigned msg, unsigned len, unsigned long long at) {
  Flight *q = fast_queue_room(d->inq, &d->inq_head, d->inq_n, &d->inq_cap, sizeof *d->inq);
  if (!q) return -1;
  d->inq = q;
  if (at <= d->last_arrival) at = d->last_arrival + 1;
  d->last_arrival = at;
  d->inq[d->inq_head + d->inq_n++] = (Flight){msg, len, at};
  d->live = 1;
  return 0;
}

/* The mesh holds at most this many messages bound for one mailbox (its
   routers' input FIFOs); beyond, the sender's mailbox waits (back-pressure). */
enum { MAX_BOUND = 4 * TinselMeshRouterInputMsgs };

/* Thread P's message leaves into the mesh toward its mailbox; 0 when the
   mesh has no room for it yet. */
static int transmit(FastRun *r, unsigned tile, unsigned p) {
  FastMbox *m = &r->mbox[tile];
  uint32_t dest = m->s_dest[p];
  unsigned board = tile / TinselMailboxesPerBoard;
  if (dest >> (LMB + TinselMeshXBits + TinselMeshYBits + 3) & 1) tsim_mbox_error(tile, p, ERR_DEST, dest);
  if (dest >> LMB != tsim_board_addr(board)) return fast_link_send(r, tile, p, dest);  /* the board router */
  unsigned dt = board * TinselMailboxesPerBoard + dest % TinselMailboxesPerBoard;
  FastMbox *d = &r->mbox[dt];
  if (d->inq_n >= MAX_BOUND) return 0;
  unsigned msg = fast_mbox_capture(r, tile, p);
  unsigned src = tile % TinselMailboxesPerBoard, dst = dt % TinselMailboxesPerBoard;
  int dx = (int)(src % XL) - (int)(dst % XL), dy = (int)(src / XL) - (int)(dst / XL);
  unsigned hops = (unsigned)(abs(dx) + abs(dy));
  fast_mbox_push(r, dt, msg, m->s_len[p], r->cycle + 3 + (hops + 1) * TinselMeshHopLatency);
  return 1;
}

unsigned fast_mbox_capture(FastRun *r, unsigned tile, unsigned p) {
  FastMbox *m = &r->mbox[tile];
  return tsim_mbox_capture(tile, p, m->s_slot[p], m->s_len[p] + 1, m->s_mhi[p], m->s_mlo[p]);
}

unsigned fast_mbox_len(const FastRun *r, unsigned tile, unsigned p) { return r->mbox[tile].s_len[p]; }

void fast_mbox_push(FastRun *r, unsigned tile, unsigned msg, unsigned len, unsigned long long at) {
  FastMbox *d = &r->mbox[tile];
  if (push_flight(d, msg, len, at)) {
    fprintf(stderr, "tsim: fast engine: out of memory for messages in flight to tile %u (%u queued)\n", tile, d->inq_n);
    exit(70);
  }
}

int fast_mbox_inject(FastRun *r, unsigned tile, unsigned msg, unsigned len, unsigned long long at) {
  if (r->mbox[tile].inq_n >= MAX_BOUND) return -1;
  fast_mbox_push(r, tile, msg, len, at);
  return 0;
}

/* One pending message at a time, one flit per cycle, after a random delay (--delay-seed). */
static void tx(FastRun *r, unsigned tile, unsigned long long now) {
  FastMbox *m = &r->mbox[tile];
  if (m->send_pend && tsim_mbox_delay_on() && !m->tx_delayed) {
    m->tx_free_at = (now > m->tx_free_at ? now : m->tx_free_at) + tsim_mbox_delay(tile);
    m->tx_delayed = 1;
  }
  if (!m->send_pend || now < m->tx_free_at) return;
  unsigned k = (m->tx_last + 1) % TM;
  uint64_t rot = k ? (m->send_pend >> k) | (m->send_pend << (64 - k)) : m->send_pend;
  unsigned p = (k + fast_ctz64(rot)) % TM;
  if (!transmit(r, tile, p)) return;
  m->tx_last = p;
  m->tx_free_at = now + m->s_len[p] + 1;
  m->tx_delayed = 0;
  m->send_pend &= ~(1ull << p);
  if (m->wait_send >> p & 1) wake(m, 1ull << p, 0);
  r->retired_now = 1;  /* a message moved */
}

/* The pool's size as the board's first DebugLink QueryIn set it (mbox.sv). */
static void fix_pool(FastMbox *m, unsigned tile) {
  unsigned cfg = tsim_mbox_pool_config(tile);
  if (cfg == 2 && NS > 2 * TM) {
    for (unsigned s = 0; s < NS - 2 * TM; s++) m->free_stack[s] = (uint16_t)(NS - 1 - s);
    m->pool_n = m->free_top = NS - 2 * TM;
  }
  if (cfg) m->pool_fixed = 1;
}

static void place(FastMbox *m, unsigned tile, unsigned long long now) {
  uint64_t dests = TM == 64 ? m->rx_mask : m->rx_mask & ((1ull << TM) - 1);
  if (dests && !m->pool_fixed && m->free_top == m->pool_n) fix_pool(m, tile);
  if (!dests) {
    tsim_mbox_deliver(m->rx_msg, tile, 0);
    m->rx_have = 0;
    m->n_recv++;
    return;
  }
  if (m->free_top == 0 || (dests & m->q_full)) {
    m->n_stall++;
    return;
  }
  unsigned slot = m->free_stack[--m->free_top];
  m->refc[slot] = (uint8_t)fast_popcount64(dests);
  tsim_mbox_deliver(m->rx_msg, tile, slot);
  for (unsigned t = 0; t < TM; t++)
    if (dests >> t & 1) {
      m->rq[t * QN + (m->rq_head[t] + m->rq_count[t]) % QN] = (uint16_t)slot;
      if (++m->rq_count[t] == QN) m->q_full |= 1ull << t;
      if (m->rq_count[t] > m->q_max) m->q_max = m->rq_count[t];
    }
  m->q_nonempty |= dests;
  if (m->pool_n - m->free_top > m->pool_max) m->pool_max = m->pool_n - m->free_top;
  if (dests & m->wait_recv) wake(m, dests & m->wait_recv, 0);
  m->rx_have = 0;
  m->n_recv++;
  m->n_deliv += fast_popcount64(dests);
  m->rx_free_at = now + m->rx_len + 1;
}

static void rx(FastRun *r, FastMbox *m, unsigned tile, unsigned long long now) {
  if (m->in_ready && m->inq_n && m->inq[m->inq_head].at <= r->cycle) {
    Flight f = m->inq[m->inq_head];
    m->inq_head++;
    if (--m->inq_n == 0) m->inq_head = 0;
    m->rx_have = 1;
    m->rx_msg = f.msg;
    m->rx_len = f.len;
    m->rx_mask = tsim_mbox_mask(f.msg);
    r->retired_now = 1;  /* a message moved */
  }
  if (m->rx_have && now >= m->rx_free_at) place(m, tile, now);
  m->in_ready = !m->rx_have;
}

/* One answer per core per cycle: the lowest waiting thread. */
static void answer(FastRun *r, FastMbox *m, unsigned tile) {
  for (unsigned c = 0; c < TinselCoresPerMailbox; c++) {
    uint64_t pend = (m->resp_pend >> (c * TinselThreadsPerCore)) & ((1ull << TinselThreadsPerCore) - 1);
    if (!pend) continue;
    unsigned tid = fast_ctz64(pend), t = c * TinselThreadsPerCore + tid;
    FastCore *core = &r->cores[tile * TinselCoresPerMailbox + c];
    core->resp_valid = 1;
    core->resp_tid = tid;
    core->resp_data = m->resp_val[t];
    m->resp_pend &= ~(1ull << t);
    r->any_ready = 1;  /* the core takes it next cycle */
  }
}

static int has_work(const FastRun *r, const FastMbox *m) {
  return m->req.valid || m->req_in.valid || m->send_pend || m->rx_have || m->inq_n || m->resp_pend ||
         (r->idle_release && m->wait_idle);
}

int fast_mbox_tile_busy(const FastRun *r, unsigned tile) {
  return r->mbox[tile].live || (r->idle_release && r->mbox[tile].wait_idle);
}

int fast_mbox_no_waits(const FastRun *r, unsigned tile) {
  const FastMbox *m = &r->mbox[tile];
  return !m->req.valid && !m->req_in.valid && !m->resp_pend && !(m->wait_send | m->wait_recv | m->wait_idle);
}

void fast_mbox_step(FastRun *r, unsigned tile) {
  FastMbox *m = &r->mbox[tile];
  unsigned long long now = r->cycle + 1;  /* mbox.sv counts from 1 */
  if (m->req.valid) request(m, tile, &m->req);
  tx(r, tile, now);
  rx(r, m, tile, now);
  if (r->idle_release && m->wait_idle) wake(m, m->wait_idle, r->idle_result << 2);
  if (m->resp_pend) answer(r, m, tile);
  m->req = m->req_in;
  m->req_in.valid = 0;
  m->live = has_work(r, m);
  r->mbox_stepped = 1;
}

void fast_mbox_idle_here(const FastRun *r, int *idle_out, int *voted_out, long long *inflight_out) {
  int idle = 1, voted = 1;
  long long inflight = tsim_hostlink_inflight();
  for (unsigned b = r->board_lo; b < r->board_hi; b++) inflight += tsim_pr_inflight(b);
  uint64_t all = TM == 64 ? ~0ull : (1ull << TM) - 1;
  for (unsigned t = r->tile_lo; t < r->tile_hi; t++) {
    idle = idle && r->mbox[t].wait_idle == all;
    voted = voted && r->mbox[t].vote == all;
    inflight += r->mbox[t].inflight;
  }
  *idle_out = idle;
  *voted_out = voted;
  *inflight_out = inflight;
}

void fast_mbox_idle(FastRun *r) {
  int idle, voted;
  long long inflight;
  if (r->windowed) {  /* decided between windows, over every rank (fast_main.c); a release lasts a cycle */
    r->idle_release = 0;
    return;
  }
  fast_mbox_idle_here(r, &idle, &voted, &inflight);
  r->idle_release = idle && inflight == 0;
  r->idle_result = voted ? 2 : 1;
}

int fast_mbox_busy(const FastRun *r) {
  for (unsigned t = r->tile_lo; t < r->tile_hi; t++)
    if (r->mbox[t].live) return 1;
  return r->idle_release;
}

void fast_mbox_final(FastRun *r) {
  for (unsigned t = r->tile_lo; t < r->tile_hi; t++) {
    FastMbox *m = &r->mbox[t];
    tsim_mbox_stats(t, m->n_sent, m->n_recv, m->n_deliv, m->q_max, m->pool_max, m->n_stall, m->inflight,
                    fast_popcount64(m->wait_idle),
                    fast_popcount64(m->wait_send | m->wait_recv | m->wait_idle));
    for (unsigned th = 0; th < TM; th++)
      tsim_mbox_thread_wait(t, th, m->wait_send >> th & 1, m->wait_recv >> th & 1, m->wait_idle >> th & 1);
  }
}
