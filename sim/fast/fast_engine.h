/* fast_engine.h: the fast engine's cores and tiles (fast_engine.c) and the
   run loop that clocks them (fast_main.c). */
#ifndef FAST_ENGINE_H
#define FAST_ENGINE_H

#include "fast.h"

#include <stddef.h>
#include <stdint.h>

enum {
  FAST_T = TinselThreadsPerCore,
  FAST_LT = TinselLogThreadsPerCore,
  FAST_NC = TinselCoresPerMailbox,  /* cores per tile: one FPU, data cache, mailbox */
  FAST_CORES_PER_IMEM = TinselSharedInstrMem && TinselCoresPerMailbox > 1 ? 2 : 1,
  FAST_WHEEL = 64,                  /* timing wheel slots: more than any latency */
  FAST_LL_SETS = 1 << TinselDCacheLogSetsPerThread,  /* a thread's cache sets ... */
  FAST_DC_WAYS = 1 << TinselDCacheLogNumWays,       /* ... of this many ways */
  FAST_LL_NONE = 1,                 /* ll_tag of no line (line addresses are aligned) */
  FAST_QUANTUM = 1000,              /* default cycles a tile may run ahead (TSIM_FAST_QUANTUM) */
  FAST_SHORT = 32,                  /* a batch or run ahead shorter than this many cycles ... */
  FAST_BACKOFF = 1024               /* ... waits up to this many before the next try */
};

/* The longest wait in the wheel (pipeline plus the slowest unit or memory). */
_Static_assert(TinselPipelineStages + TinselFPMultLatency + TinselFPAddSubLatency < FAST_WHEEL, "wheel too small");
_Static_assert(TinselPipelineStages + TinselIntDivLatency < FAST_WHEEL, "wheel too small");
_Static_assert(TinselPipelineStages + TinselDCacheHitLatency + TinselDRAMLatency < FAST_WHEEL, "wheel too small");
_Static_assert(FAST_T <= 16, "thread masks are 16 bits");

/* The fields every cycle reads come first, in one host cache line (the
   array is allocated 64-byte aligned), then the pcs and the registers. */
typedef struct {
  _Alignas(64) uint32_t run;
  uint32_t res, alive;
  unsigned last, prefer_res, started;
  int sel, sel_res;     /* this cycle's thread (-1: none) and its queue */
  unsigned unit;        /* the unit its instruction needs */
  int resp_valid;       /* the mailbox's answer, taken next cycle */
  uint64_t wheel_busy;
  unsigned long long ahead;  /* clocked up to here by core_batch */
  unsigned long long batch_after;  /* no core_batch before this cycle (FAST_BACKOFF) */
  FastOp *code;         /* the core pair's decoded instruction memory */
  uint32_t *image;      /* its words (CSR Instr writes them) */
  unsigned long long issued, retired;
  /* The tile's cache lines of this core's threads (tsim_dcache_ref; NULL
     until the cache exists): hits on them skip tsim_mem. And the way of
     each thread's set that hit last, tried first. */
  const uint32_t *dc_key;
  uint8_t *dc_data, *dc_dirty;
  uint32_t pc[FAST_T];
  uint8_t dc_hint[FAST_T][FAST_LL_SETS];
  /* The address of the line in each thread's set's hint way, or
     FAST_LL_NONE: a hit on it needs not even the keys. Only the thread's own
     accesses through tsim_mem (in the sets they touch) and its flushes
     (in any) can replace it. */
  uint32_t ll_tag[FAST_T][FAST_LL_SETS];
  uint32_t x[FAST_T][32], f[FAST_T][32], waddr[FAST_T];
  uint32_t wheel[FAST_WHEEL];  /* per cycle: resume mask << 16 | run mask */
  unsigned id;          /* run-wide core number */
  uint32_t hart_base;   /* HartId of thread 0 */
  uint8_t pend_rd[FAST_T];  /* destination of a pending mailbox read */
  unsigned resp_tid;
  uint32_t resp_data;
  unsigned batch_wait;
  unsigned long long susp_mem, susp_fpu, susp_mb, retry;
  uint64_t *prof;       /* --pc-profile: instructions retired per instruction memory word (fast_pcprof.c); NULL: off */
} FastCore;
_Static_assert(offsetof(FastCore, batch_after) + 8 <= 64, "the hot fields in one host cache line");

typedef struct {
  unsigned id;
  unsigned next[5];     /* round-robin arbiters per unit (index UNIT_*) */
  unsigned long long ahead;  /* its cores have been clocked up to here (run_ahead) */
  unsigned long long ahead_after;  /* no run_ahead before this cycle (FAST_BACKOFF) */
  unsigned ahead_wait;
  unsigned long long sleep_until;  /* not clocked before this cycle unless its mailbox has work (fast_cycle) */
  unsigned long long hits, misses, writebacks;
  struct { unsigned long long cycle; unsigned outcome; int valid; } pend[4];  /* counted 2 cycles later */
} FastTile;

struct FastMbox;

typedef struct {
  unsigned ncores, ntiles, imem_words;
  int full;
  uint32_t tohost;      /* the program's tohost address (stores to it go through tsim_mem) */
  int hostlink;         /* --hostlink: board 0's West link is the host (fast_link.c) */
  FastCore *cores;
  FastTile *tiles;
  FastOp **pair_code;
  uint32_t **pair_image;
  uint8_t *pair_owned;  /* the pair allocated its arrays (else it shares an earlier pair's) */
  uint8_t *pair_shared; /* its arrays serve other pairs too: copy before a CSR Instr write */
  uint64_t *pair_hash;  /* a hash of the image each pair was loaded with (load_pair) */
  struct FastMbox *mbox;  /* per tile (fast_mbox.c) */
  int idle_release;     /* idle detection: wake every tinselIdle thread this cycle */
  int mbox_stepped;     /* a mailbox was clocked this cycle: idle detection may change */
  unsigned idle_result;
  unsigned long long cycle;
  int retired_now;      /* an instruction retired or a message moved in the cycle being clocked */
  int any_ready;        /* a thread is queued after it */
  unsigned quantum;     /* cycles a tile may run ahead of the run (0: none; TSIM_FAST_QUANTUM) */
  unsigned long long limit;         /* --max-cycles: no tile runs ahead past it */
  unsigned long long batch_end;     /* no core_batch past it */
  unsigned long long active_until;  /* the cycle after the last one in which a tile run ahead retired */
  /* Split over MPI ranks (fast_mpi.c): the tiles and boards this process
     clocks (all of them in one process), and whether the run goes in
     windows (then idle detection is decided between windows, over every
     rank, and the inter-board links carry the receiving router's latency). */
  unsigned tile_lo, tile_hi, board_lo, board_hi;
  int windowed;
  int prof_fd;          /* --pc-profile: the file, open to append (fast_pcprof.c); -1: no profile */
} FastRun;

/* Room for one more element at the end of a queue of N elements of SIZE
   bytes from *HEAD in BUF (capacity *CAP): slide them to the front, or
   double the buffer. The buffer (maybe moved), or NULL out of memory
   (BUF is then unchanged). */
void *fast_queue_room(void *buf, unsigned *head, unsigned n, unsigned *cap, size_t size);

/* Build the cores of the loaded run (tsim_run_load done). 0 or -1 (out of memory, said). */
int fast_init(FastRun *r, int full);
void fast_free(FastRun *r);
/* Clock every tile for cycle r->cycle. */
void fast_cycle(FastRun *r);
/* The first cycle >= r->cycle in which some core has a thread due from its
   wheel, or ~0 when none has. */
unsigned long long fast_next_event(const FastRun *r);
/* End of run: the statistics and thread states the models' final blocks report. */
void fast_final(FastRun *r);

#endif
