/* fast_mpi.c: see fast_mpi.h. Built with Open MPI when mpicc is found
   (sim/fast/rules.mk); with TSIM_NO_MPI, one process only. */
#define _POSIX_C_SOURCE 200809L
#include "fast_mpi.h"

#include "tsim_boards.h"
#include "tsim_debuglink.h"
#include "tsim_hostlink.h"
#include "tsim_links.h"
#include "tsim_mbox.h"
#include "tsim_progrouter.h"
#include "tsim_run.h"
#include "tsim_threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TSIM_NO_MPI
#include <mpi.h>
#endif

FastMpi fast_mpi = {0, 0, 1, 0};

/* The ranks mpirun asked for (Open MPI's environment), or 0 when not started by it. */
static int ranks_asked(void) {
  const char *e = getenv("OMPI_COMM_WORLD_SIZE");
  return e && *e ? atoi(e) : 0;
}

/* Rank K clocks boards [lo(K), lo(K + 1)). */
static unsigned board_lo(int k, unsigned nb) { return (unsigned)((unsigned long long)k * nb / (unsigned)fast_mpi.ranks); }


/* The window: TSIM_FAST_WINDOW cycles (1 up to the link latency), else the link latency. */
static int window_from_env(unsigned *w) {
  const char *e = getenv("TSIM_FAST_WINDOW");
  char *end;
  *w = FAST_MPI_WINDOW;
  if (!e || !*e) return 0;
  unsigned long v = strtoul(e, &end, 10);
  if (*end || e[0] == '-' || v < 1 || v > FAST_MPI_WINDOW) {
    fprintf(stderr, "tsim: TSIM_FAST_WINDOW \"%s\": expected a number of cycles from 1 to %u (the shortest "
            "inter-board latency, LinkCyclesPerFlit + MacLatency: a longer window would let a message arrive "
            "before the window that sent it ends)\n", e, (unsigned)FAST_MPI_WINDOW);
    return TSIM_EXIT_USAGE;
  }
  *w = (unsigned)v;
  return 0;
}

int fast_mpi_split(FastRun *r) {
  unsigned nb = tsim_boards();
  int rc;
  if (!fast_mpi.on) return 0;
  if ((rc = window_from_env(&fast_mpi.window))) return rc;
  if ((unsigned)fast_mpi.ranks > nb) {
    if (fast_mpi.rank == 0)
      fprintf(stderr, "tsim: %d MPI ranks for %u board%s: at most one rank per board (--config box has %u, "
              "cluster %u)\n", fast_mpi.ranks, nb, nb == 1 ? "" : "s", (unsigned)(TSIM_BOX_X * TSIM_BOX_Y),
              (unsigned)(TSIM_CLUSTER_X * TSIM_CLUSTER_Y));
    return TSIM_EXIT_USAGE;
  }
  r->board_lo = board_lo(fast_mpi.rank, nb);
  r->board_hi = board_lo(fast_mpi.rank + 1, nb);
  r->tile_lo = r->board_lo * TinselMailboxesPerBoard;
  r->tile_hi = r->board_hi * TinselMailboxesPerBoard;
  r->windowed = 1;
  /* The credit delay is the latency, whatever the window: the same run
     with a shorter window (TSIM_FAST_WINDOW) gives the same cycles. */
  tsim_links_set_timing(TinselMacLatency, FAST_MPI_WINDOW);
  return 0;
}

#ifdef TSIM_NO_MPI

int fast_mpi_start(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  if (ranks_asked() > 1) {
    fprintf(stderr, "tsim: started by mpirun with %d ranks, but this fast engine was built without MPI "
            "(no mpicc: make deps installs libopenmpi-dev, then rebuild)\n", ranks_asked());
    return TSIM_EXIT_USAGE;
  }
  return 0;
}
void fast_mpi_exchange(FastRun *r) { (void)r; }
void fast_mpi_sync(FastSync *s) { (void)s; }
void fast_mpi_gather(double *secs) { (void)secs; }
int fast_mpi_finish(int status) { return status; }
int fast_mpi_fail(int status) { return status; }

#else

int fast_mpi_start(int *argc, char ***argv) {
  if (!ranks_asked()) return 0;
  if (MPI_Init(argc, argv) != MPI_SUCCESS) {
    fprintf(stderr, "tsim: MPI_Init failed\n");
    return TSIM_EXIT_USAGE;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &fast_mpi.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &fast_mpi.ranks);
  fast_mpi.on = 1;
  return 0;
}

/* The rank that clocks board B. */
static int owner(unsigned b, unsigned nb) {
  int k = 0;
  while (k + 1 < fast_mpi.ranks && board_lo(k + 1, nb) <= b) k++;
  return k;
}

/* What crosses to another rank: a message on board B's link D (with its
   contents), or a slot the receiver of board B's link D took at cycle AT. */
typedef struct {
  uint32_t freed, b, d;
  TsimLinkMsg m;   /* m.arrive: the arrival, or the cycle the slot was taken */
  TsimMbWire w;
} Rec;

typedef struct { Rec *r; size_t n, cap; } Buf;

static void put(Buf *q, const Rec *x) {
  if (q->n == q->cap) {
    size_t cap = q->cap ? 2 * q->cap : 64;
    Rec *nr = realloc(q->r, cap * sizeof *nr);
    if (!nr) {
      fprintf(stderr, "tsim: rank %d: out of memory for %zu link messages to ship\n", fast_mpi.rank, cap);
      MPI_Abort(MPI_COMM_WORLD, 70);
    }
    q->r = nr;
    q->cap = cap;
  }
  q->r[q->n++] = *x;
}

void fast_mpi_exchange(FastRun *r) {
  static Buf *out, in;
  static int *scount, *sdispl, *rcount, *rdispl;
  int R = fast_mpi.ranks;
  unsigned nb = tsim_boards();
  if (R < 2) return;
  if (!out) {
    out = calloc((size_t)R, sizeof *out);
    scount = calloc((size_t)R * 4, sizeof *scount);
    if (!out || !scount) {
      fprintf(stderr, "tsim: rank %d: out of memory\n", fast_mpi.rank);
      MPI_Abort(MPI_COMM_WORLD, 70);
    }
    sdispl = scount + R;
    rcount = sdispl + R;
    rdispl = rcount + R;
  }
  for (unsigned b = r->board_lo; b < r->board_hi; b++)
    for (unsigned d = 0; d < TSIM_LINKS; d++) {
      int n = tsim_board_next(b, d), q;
      if (n < 0 || (q = owner((unsigned)n, nb)) == fast_mpi.rank) continue;
      TsimLinkMsg m[TinselLinkBufferMsgs];
      unsigned long long at[TinselLinkBufferMsgs];
      unsigned k = tsim_links_export(b, d, m);  /* what b sent toward n */
      for (unsigned i = 0; i < k; i++) {
        Rec x = {0, b, d, m[i], {{0}, 0, 0, 0}};
        tsim_mbox_export(m[i].msg, &x.w);
        put(&out[q], &x);
      }
      k = tsim_links_export_freed((unsigned)n, d ^ 1, at);  /* what b took from n's link toward it */
      for (unsigned i = 0; i < k; i++) {
        Rec x = {1, (unsigned)n, d ^ 1, {0, 0, 0, at[i]}, {{0}, 0, 0, 0}};
        put(&out[q], &x);
      }
    }
  for (int q = 0; q < R; q++) scount[q] = (int)(out[q].n * sizeof(Rec));
  MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD);
  size_t total = 0, sent = 0;
  for (int q = 0; q < R; q++) {
    rdispl[q] = (int)total;
    total += (size_t)rcount[q];
  }
  /* One send buffer: the peers' records one after another. */
  static Buf all;
  all.n = 0;
  for (int q = 0; q < R; q++) {
    sdispl[q] = (int)(sent * sizeof(Rec));
    for (size_t i = 0; i < out[q].n; i++) put(&all, &out[q].r[i]);
    sent += out[q].n;
    out[q].n = 0;
  }
  while (in.cap < total / sizeof(Rec) + 1) {
    Rec x;
    memset(&x, 0, sizeof x);
    put(&in, &x);
  }
  MPI_Alltoallv(all.r, scount, sdispl, MPI_BYTE, in.r, rcount, rdispl, MPI_BYTE, MPI_COMM_WORLD);
  in.n = 0;
  for (size_t i = 0; i < total / sizeof(Rec); i++) {
    Rec *x = &in.r[i];
    if (x->freed) {
      tsim_links_import_freed(x->b, x->d, &x->m.arrive, 1);
    } else {
      x->m.msg = tsim_mbox_import(&x->w);
      tsim_links_import(x->b, x->d, &x->m, 1);
    }
  }
}

static void combine(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)type;
  const FastSync *a = in;
  FastSync *b = inout;
  for (int i = 0; i < *len; i++, a++, b++) {
    if (a->stop_key < b->stop_key) {
      b->stop_key = a->stop_key;
      b->tohost = a->tohost;
    }
    if (a->last_active > b->last_active) b->last_active = a->last_active;
    if (a->next_event < b->next_event) b->next_event = a->next_event;
    b->inflight += a->inflight;
    b->sent += a->sent;
    if (a->dl_gen > b->dl_gen) b->dl_gen = a->dl_gen;
    b->idle = b->idle && a->idle;
    b->voted = b->voted && a->voted;
  }
}

void fast_mpi_sync(FastSync *s) {
  static MPI_Datatype type;
  static MPI_Op op;
  if (fast_mpi.ranks < 2) return;
  if (!op) {
    MPI_Type_contiguous((int)sizeof *s, MPI_BYTE, &type);
    MPI_Type_commit(&type);
    MPI_Op_create(combine, 1, &op);
  }
  FastSync mine = *s;
  MPI_Allreduce(&mine, s, 1, type, op, MPI_COMM_WORLD);
  /* A QueryIn on rank 0's DebugLink (links off, the receive pool) reaches
     every rank before the next window: no message from the host can reach
     another rank's boards sooner (it crosses a link between ranks). */
  static unsigned shared_gen;  /* the same on every rank */
  if (s->dl_gen != shared_gen) {
    static unsigned cfg[2][TSIM_MAX_BOARDS];
    if (fast_mpi.rank == 0) tsim_debuglink_config_get(cfg[0], cfg[1]);
    MPI_Bcast(cfg, (int)(sizeof cfg / sizeof cfg[0][0]), MPI_UNSIGNED, 0, MPI_COMM_WORLD);
    if (fast_mpi.rank) tsim_debuglink_config_set(cfg[0], cfg[1]);
    shared_gen = s->dl_gen;
  }
}

static void or_reduce(void *buf, size_t bytes) {
  unsigned char *p = buf;
  while (bytes) {  /* in pieces an int counts */
    int n = bytes > (1u << 30) ? 1 << 30 : (int)bytes;
    MPI_Reduce(fast_mpi.rank ? p : MPI_IN_PLACE, p, n, MPI_BYTE, MPI_BOR, 0, MPI_COMM_WORLD);
    p += n;
    bytes -= (size_t)n;
  }
}

static void sum_reduce(long long *v, unsigned n) {
  MPI_Reduce(fast_mpi.rank ? v : MPI_IN_PLACE, v, (int)n, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
}

void fast_mpi_gather(double *secs) {
  if (fast_mpi.ranks < 2) return;
  tsim_run_stats_reduce(or_reduce);
  tsim_mbox_stats_reduce(or_reduce, sum_reduce);
  tsim_threads_reduce(or_reduce);
  tsim_pr_stats_reduce(or_reduce);
  tsim_links_stats_reduce(or_reduce);
  tsim_hostlink_stats_reduce(or_reduce);
  MPI_Reduce(fast_mpi.rank ? secs : MPI_IN_PLACE, secs, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
}

int fast_mpi_finish(int status) {
  if (!fast_mpi.on) return status;
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}

int fast_mpi_fail(int status) {
  if (fast_mpi.on && fast_mpi.ranks > 1) MPI_Abort(MPI_COMM_WORLD, status);
  if (fast_mpi.on) MPI_Finalize();
  return status;
}

#endif
