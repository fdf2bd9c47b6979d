/* fast_engine.c: the fast engine's cores and tiles. Each core keeps the
   cycle model's schedule (rtl_models/tsim_core.sv): a run queue and a
   resume queue (masks), one issue per cycle round-robin after the last
   thread, alternating between the queues, a timing wheel returning a thread
   PipelineStages cycles after issue (plus the unit latency, through the
   resume queue), a data-cache access resuming PipelineStages + latency
   after issue (rtl_models/tsim_dcache.sv), and the tile's round-robin
   arbiters for the FPU, data cache and mailbox. Instructions execute at
   issue, as in the model, so threads see each other's stores, counters and
   output in the same order. */
#include "fast_engine.h"

#include "fast_mbox.h"

#include "Vtsim_top__Dpi.h"
#include "tsim_boards.h"
#include "tsim_dcache.h"
#include "tsim_decode.h"
#include "tsim_fpu.h"
#include "tsim_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HALT_PROFILE = 1, HALT_ILLEGAL = 2, HALT_PC = 3, HALT_CSR = 4 };  /* tsim_dpi.sv's reasons */
enum { PS = TinselPipelineStages };
/* The instruction memory the models allocate per pair (tsim_dpi.sv LogImemModel): CSR InstrAddr wraps there. */
enum { IMEM_MODEL_WORDS = 1u << (TinselEnlargedLogInstrsPerCore > TinselLogInstrsPerCore
                                   ? TinselEnlargedLogInstrsPerCore : TinselLogInstrsPerCore) };

/* ---------------------------------------------------------------- set-up */

/* Pair P's arrays: its own image decoded, or (the usual case: pairs run
   one of a few programs, e.g. OP2's code groups, which alternate pair by
   pair) those of an earlier pair with the same image, shared, so that the
   host's caches hold one copy of each decoded program. */
static int load_pair(FastRun *r, unsigned p, uint32_t *words) {
  int own = tsim_imem_pair_loaded(p) != 0;
  for (unsigned i = 0; i < r->imem_words; i++) words[i] = own ? tsim_imem_pair_word(p, i) : tsim_imem_word(i);
  uint64_t h = 14695981039346656037ull;  /* FNV-1a over the words: most pairs differ in it */
  for (unsigned i = 0; i < r->imem_words; i++) h = (h ^ words[i]) * 1099511628211ull;
  r->pair_hash[p] = h;
  for (unsigned q = 0; q < p; q++)
    if (r->pair_owned[q] && r->pair_hash[q] == h && !memcmp(words, r->pair_image[q], r->imem_words * sizeof *words)) {
      r->pair_code[p] = r->pair_code[q];
      r->pair_image[p] = r->pair_image[q];
      r->pair_shared[p] = r->pair_shared[q] = 1;
      return 0;
    }
  r->pair_image[p] = malloc(r->imem_words * sizeof(uint32_t));
  r->pair_code[p] = malloc(r->imem_words * sizeof(FastOp));
  if (!r->pair_image[p] || !r->pair_code[p]) return -1;
  r->pair_owned[p] = 1;
  memcpy(r->pair_image[p], words, r->imem_words * sizeof *words);
  for (unsigned i = 0; i < r->imem_words; i++) r->pair_code[p][i] = fast_decode(words[i], r->full);
  return 0;
}

static int load_pairs(FastRun *r) {
  unsigned npairs = r->ncores / FAST_CORES_PER_IMEM;
  r->pair_code = calloc(npairs, sizeof *r->pair_code);
  r->pair_image = calloc(npairs, sizeof *r->pair_image);
  r->pair_owned = calloc(npairs, 1);
  r->pair_shared = calloc(npairs, 1);
  r->pair_hash = calloc(npairs, sizeof *r->pair_hash);
  uint32_t *words = malloc(r->imem_words * sizeof *words);
  int rc = !r->pair_code || !r->pair_image || !r->pair_owned || !r->pair_shared || !r->pair_hash || !words ? -1 : 0;
  for (unsigned p = 0; p < npairs && !rc; p++) rc = load_pair(r, p, words);
  free(words);
  return rc;
}

/* Before pair P's instruction memory changes: its own copy if it shares one. */
static void unshare_pair(FastRun *r, unsigned p) {
  if (!r->pair_shared[p]) return;
  uint32_t *image = malloc(r->imem_words * sizeof *image);
  FastOp *code = malloc(r->imem_words * sizeof *code);
  if (!image || !code) {
    fprintf(stderr, "tsim: fast engine: out of memory for core pair %u's own %u-word instruction memory\n", p,
            r->imem_words);
    exit(70);
  }
  memcpy(image, r->pair_image[p], r->imem_words * sizeof *image);
  memcpy(code, r->pair_code[p], r->imem_words * sizeof *code);
  for (unsigned q = 0; r->pair_owned[p] && q < r->ncores / FAST_CORES_PER_IMEM; q++)
    if (q != p && r->pair_code[q] == r->pair_code[p]) {  /* the old arrays pass to a pair still using them */
      r->pair_owned[q] = 1;
      break;
    }
  r->pair_image[p] = image;
  r->pair_code[p] = code;
  r->pair_owned[p] = 1;
  r->pair_shared[p] = 0;  /* the others may still share among themselves: they copy when they write */
  for (unsigned k = 0; k < FAST_CORES_PER_IMEM; k++) {
    r->cores[p * FAST_CORES_PER_IMEM + k].image = image;
    r->cores[p * FAST_CORES_PER_IMEM + k].code = code;
  }
}

int fast_init(FastRun *r, int full) {
  memset(r, 0, sizeof *r);
  r->prof_fd = -1;
  r->full = full;
  r->ncores = tsim_boards() * TinselCoresPerBoard;
  r->ntiles = r->ncores / FAST_NC;
  r->imem_words = tsim_imem_words();
  r->tohost = tsim_run_tohost();
  r->cores = aligned_alloc(64, r->ncores * sizeof *r->cores);  /* a multiple of 64: FastCore is aligned */
  if (r->cores) memset(r->cores, 0, r->ncores * sizeof *r->cores);
  r->tiles = calloc(r->ntiles, sizeof *r->tiles);
  if (!r->cores || !r->tiles || load_pairs(r) || fast_mbox_init(r)) {
    fprintf(stderr, "tsim: fast engine: out of memory for %u cores and their %u-word instruction memories\n",
            r->ncores, r->imem_words);
    return -1;
  }
  for (unsigned i = 0; i < r->ncores; i++) {
    FastCore *c = &r->cores[i];
    c->id = i;
    c->hart_base = tsim_board_addr(i / TinselCoresPerBoard) << TinselLogThreadsPerBoard |
                   (i % TinselCoresPerBoard) << FAST_LT;
    c->code = r->pair_code[i / FAST_CORES_PER_IMEM];
    c->image = r->pair_image[i / FAST_CORES_PER_IMEM];
    c->last = FAST_T - 1;
    c->sel = -1;
    for (unsigned t = 0; t < FAST_T; t++)
      for (unsigned k = 0; k < FAST_LL_SETS; k++) c->ll_tag[t][k] = FAST_LL_NONE;
  }
  for (unsigned t = 0; t < r->ntiles; t++) r->tiles[t].id = t;
  r->tile_hi = r->ntiles;
  r->board_hi = tsim_boards();
  return 0;
}

void fast_free(FastRun *r) {
  for (unsigned p = 0; r->pair_owned && p < r->ncores / FAST_CORES_PER_IMEM; p++)
    if (r->pair_owned[p]) {
      free(r->pair_code[p]);
      free(r->pair_image[p]);
    }
  free(r->pair_code);
  free(r->pair_image);
  free(r->pair_owned);
  free(r->pair_shared);
  free(r->pair_hash);
  fast_mbox_free(r);
  for (unsigned i = 0; r->cores && i < r->ncores; i++) free(r->cores[i].prof);
  free(r->cores);
  free(r->tiles);
  memset(r, 0, sizeof *r);
}

void *fast_queue_room(void *buf, unsigned *head, unsigned n, unsigned *cap, size_t size) {
  if (*head + n < *cap) return buf;
  if (*head) {
    memmove(buf, (char *)buf + (size_t)*head * size, (size_t)n * size);
    *head = 0;
    return buf;
  }
  unsigned c = *cap ? 2 * *cap : 64;
  void *nb = realloc(buf, (size_t)c * size);
  if (nb) *cap = c;
  return nb;
}

/* ---------------------------------------------------------------- timing */

/* Thread bits (BITS: resume << 16 | run) arrive at cycle AT's start of clocking. */
static inline void wheel_put(FastCore *c, unsigned long long at, uint32_t bits) {
  unsigned s = (unsigned)(at & (FAST_WHEEL - 1));
  c->wheel[s] |= bits;
  c->wheel_busy |= 1ull << s;
}

/* The tile's cache counters (CSRs HitCount...) count an access two cycles
   after its issue, as the latency model does. */
static void tile_count(FastTile *tl, unsigned long long now) {
  for (int i = 0; i < 4; i++)
    if (tl->pend[i].valid && tl->pend[i].cycle + 2 <= now) {
      unsigned o = tl->pend[i].outcome;
      if ((o & 7) == TSIM_DC_HIT) tl->hits++;
      else if ((o & 7) == TSIM_DC_MISS_SRAM || (o & 7) == TSIM_DC_MISS_DRAM) tl->misses++;
      if (o & TSIM_DC_WRITEBACK) tl->writebacks++;
      tl->pend[i].valid = 0;
    }
}

/* Thread T of C waits for the data cache's answer to OUTCOME. */
static void dcache_wait(FastRun *r, FastCore *c, unsigned t, unsigned outcome) {
  FastTile *tl = &r->tiles[c->id / FAST_NC];
  unsigned lat;
  switch (outcome & 7) {
  case TSIM_DC_MISS_SRAM: lat = TinselDCacheHitLatency + TinselSRAMLatency; break;
  case TSIM_DC_MISS_DRAM: lat = TinselDCacheHitLatency + TinselDRAMLatency; break;
  default: lat = TinselDCacheHitLatency; break;
  }
  wheel_put(c, r->cycle + PS + lat - 1, (1u << t) << 16);
  tile_count(tl, r->cycle);
  unsigned k = (unsigned)(r->cycle & 3);
  tl->pend[k].cycle = r->cycle;
  tl->pend[k].outcome = outcome;
  tl->pend[k].valid = 1;
  c->susp_mem++;
}

/* ---------------------------------------------------------------- execution */

/* The instruction word of decoded op O of core C: the same index of the image. */
static inline uint32_t op_raw(const FastCore *c, const FastOp *o) { return c->image[o - c->code]; }

/* What one instruction did besides its register result. */
typedef struct {
  uint32_t npc;
  unsigned lat;   /* cycles until the thread may issue again */
  int requeue;    /* back through the wheel (0: killed, or waiting for memory) */
  int suspend;    /* through the resume queue (a unit latency) */
  int halt;       /* HALT_* reason, 0 none */
} Step;

static uint32_t muldiv(unsigned f3, uint32_t a, uint32_t b) {
  switch (f3) {
  case 0: return a * b;
  case 1: return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b) >> 32);
  case 2: return (uint32_t)(((uint64_t)(int64_t)(int32_t)a * (uint64_t)b) >> 32);
  case 3: return (uint32_t)(((uint64_t)a * (uint64_t)b) >> 32);
  case 4: return b == 0 ? ~0u : (a == 0x80000000u && b == ~0u) ? a : (uint32_t)((int32_t)a / (int32_t)b);
  case 5: return b == 0 ? ~0u : a / b;
  case 6: return b == 0 ? a : (a == 0x80000000u && b == ~0u) ? 0 : (uint32_t)((int32_t)a % (int32_t)b);
  default: return b == 0 ? a : a % b;
  }
}

/* The value a CSR reads (*ok 0: unknown CSR). */
static uint32_t csr_read(FastRun *r, FastCore *c, unsigned t, unsigned csr, int *ok) {
  FastTile *tl = &r->tiles[c->id / FAST_NC];
  unsigned long long now = r->cycle, idle = now - c->issued;
  *ok = 1;
  switch (csr) {
  case TinselCsrHartId: return c->hart_base | t;
  case TinselCsrCycle: return (uint32_t)now;
  case TinselCsrCycleU: return (uint32_t)(now >> 32) & 0xff;
  case TinselCsrCPUIdleCount: return (uint32_t)idle;
  case TinselCsrCPUIdleCountU: return (uint32_t)(idle >> 32) & 0xff;
  case TinselCsrMissCount: tile_count(tl, now); return (uint32_t)tl->misses;
  case TinselCsrHitCount: tile_count(tl, now); return (uint32_t)tl->hits;
  case TinselCsrWritebackCount: tile_count(tl, now); return (uint32_t)tl->writebacks;
  case TinselCsrToUart: return 1;
  case TinselCsrProgRouterSent: return tsim_pr_counter(c->id / TinselCoresPerBoard, 0);
  case TinselCsrProgRouterSentInter: return tsim_pr_counter(c->id / TinselCoresPerBoard, 1);
  case TinselCsrFFlag: case TinselCsrFRM: case TinselCsrFCSR: case TinselCsrInstrAddr: case TinselCsrInstr:
  case TinselCsrNewThread: case TinselCsrKillThread: case TinselCsrEmit: case TinselCsrFlush:
  case TinselCsrPerfCount: return 0;
  default: *ok = 0; return 0;
  }
}

/* CSR writes with an effect (tsim_core.sv). */
static void csr_write(FastRun *r, FastCore *c, unsigned t, unsigned csr, uint32_t v, Step *s) {
  switch (csr) {
  case TinselCsrInstrAddr: c->waddr[t] = v & (IMEM_MODEL_WORDS - 1); break;
  case TinselCsrInstr: {
    uint32_t w = c->waddr[t];
    if (w < r->imem_words && c->image[w] != v) {  /* beyond: never fetched (a fetch there halts) */
      unshare_pair(r, c->id / FAST_CORES_PER_IMEM);
      c->image[w] = v;
      c->code[w] = fast_decode(v, r->full);
    }
    c->waddr[t] = (w + 1) & (IMEM_MODEL_WORDS - 1);
    break;
  }
  case TinselCsrNewThread: {
    unsigned n = v & (FAST_T - 1);
    if (!(c->alive >> n & 1) && n != t) {
      c->alive |= 1u << n;
      c->pc[n] = 0;
      c->run |= 1u << n;
    }
    break;
  }
  case TinselCsrKillThread: s->requeue = 0; c->alive &= ~(1u << t); break;
  case TinselCsrEmit: tsim_emit(c->id, t, v); break;
  case TinselCsrToUart: tsim_uart_put(c->id, t, v); break;
  case TinselCsrFlush:
    for (unsigned k = 0; k < FAST_LL_SETS; k++) c->ll_tag[t][k] = FAST_LL_NONE;
    dcache_wait(r, c, t, tsim_dc_flush(c->id, t, v));
    s->suspend = 1;
    s->requeue = 0;
    break;
  default: break;
  }
}

static void exec_csr(FastRun *r, FastCore *c, unsigned t, const FastOp *o, Step *s) {
  unsigned f3 = (op_raw(c, o) >> 12) & 7, csr = (unsigned)o->imm;
  int ok;
  uint32_t old = csr_read(r, c, t, csr, &ok);
  if (!ok) {
    s->halt = HALT_CSR;
    return;
  }
  uint32_t v = (f3 & 4) ? o->rs1 : c->x[t][o->rs1];
  if ((f3 & 3) == 2) v = old | v;
  if ((f3 & 3) == 3) v = old & ~v;
  if (o->rd) c->x[t][o->rd] = old;
  if ((f3 & 3) == 1 || o->rs1 != 0) csr_write(r, c, t, csr, v, s);
}

/* The thread's cache set of ADDR (tsim_dcache.c's). */
static inline unsigned ll_set(uint32_t addr) { return (addr / TinselBytesPerLine) & (FAST_LL_SETS - 1); }

/* The index of thread T's line holding ADDR among its core's lines
   (tsim_dcache_ref), or -1 when it is not cached (or the cache does not
   exist yet). */
static inline int dc_find(const FastCore *c, unsigned t, uint32_t addr) {
  if (!c->dc_key) return -1;
  unsigned set = ll_set(addr), base = (t * FAST_LL_SETS + set) * FAST_DC_WAYS, h = c->dc_hint[t][set];
  uint32_t line = addr & ~(uint32_t)(TinselBytesPerLine - 1), key = line + 1;
  if (line == c->ll_tag[t][set]) return (int)(base + h);
  const uint32_t *k = c->dc_key + base;
  if (k[h] == key) return (int)(base + h);
  for (unsigned w = 0; w < FAST_DC_WAYS; w++)
    if (k[w] == key) return (int)(base + w);
  return -1;
}

/* A hit in thread T's cache lines: the access tsim_mem would make, without
   its memory map and call. 0 when the access needs tsim_mem. */
static int line_hit(FastRun *r, FastCore *c, unsigned t, const FastOp *o, uint32_t addr, uint32_t wdata,
                    uint32_t *rdata) {
  unsigned f3 = (op_raw(c, o) >> 12) & 7, size = 1u << (f3 & 3), off = addr & (TinselBytesPerLine - 1);
  int store = o->op == F_STORE || o->op == F_STOREF;
  if ((addr & (size - 1)) || size > 4 || (store && addr == r->tohost)) return 0;
  int i = dc_find(c, t, addr);
  if (i < 0) return 0;
  c->dc_hint[t][ll_set(addr)] = (uint8_t)(i % FAST_DC_WAYS);
  c->ll_tag[t][ll_set(addr)] = addr & ~(uint32_t)(TinselBytesPerLine - 1);
  uint8_t *d = c->dc_data + (size_t)i * TinselBytesPerLine + off;
  if (store) {  /* the low SIZE bytes, little-endian host; fixed sizes, so no call to memcpy */
    if (size == 4) memcpy(d, &wdata, 4);
    else if (size == 2) memcpy(d, &wdata, 2);
    else *d = (uint8_t)wdata;
    c->dc_dirty[i] = 1;
    return 1;
  }
  uint32_t v = 0;
  if (size == 4) memcpy(&v, d, 4);
  else if (size == 2) memcpy(&v, d, 2);
  else v = *d;
  if (!(f3 & 4) && size < 4 && (v >> (8 * size - 1) & 1)) v |= ~0u << (8 * size);  /* lb, lh */
  *rdata = v;
  return 1;
}

static void exec_mem(FastRun *r, FastCore *c, unsigned t, uint32_t pc, const FastOp *o, Step *s) {
  uint32_t *x = c->x[t], *f = c->f[t];
  uint32_t addr = x[o->rs1] + (uint32_t)o->imm;
  int store = o->op == F_STORE || o->op == F_STOREF;
  uint32_t wdata = o->op == F_STOREF ? f[o->rs2] : x[o->rs2];
  unsigned rdata = 0, outcome = TSIM_DC_HIT;
  s->requeue = 0;
  if (!line_hit(r, c, t, o, addr, wdata, &rdata)) {
    if (tsim_mem(c->id, t, pc, op_raw(c, o), addr, wdata, &rdata, &outcome)) {  /* halted (said) */
      c->alive &= ~(1u << t);
      return;
    }
    unsigned size = 1u << ((op_raw(c, o) >> 12) & 3);
    c->ll_tag[t][ll_set(addr)] = c->ll_tag[t][ll_set(addr + size - 1)] = FAST_LL_NONE;  /* lines it may have replaced */
    TsimDcacheRef ref;
    if (!c->dc_key && outcome != TSIM_DC_SCRATCHPAD && !tsim_dcache_ref(c->id, &ref)) {  /* the cache exists now */
      c->dc_key = ref.key;
      c->dc_data = ref.data;
      c->dc_dirty = ref.dirty;
    }
  }
  if (o->op == F_LOADF) f[o->rd] = rdata;
  else if (!store && o->rd) x[o->rd] = rdata;
  s->suspend = 1;
  if ((outcome & 7) != TSIM_DC_SCRATCHPAD) {
    dcache_wait(r, c, t, outcome);
    return;
  }
  s->requeue = 1;  /* the mailbox's scratchpad: a fixed latency, no cache counters */
  s->lat += TinselScratchpadLatency;
  c->susp_mem++;
}

/* FPU and multiplier operations: a result after the unit's latency. */
static void exec_fpu(FastCore *c, unsigned t, const FastOp *o, Step *s) {
  uint32_t *x = c->x[t], *f = c->f[t];
  switch (o->op) {
  case F_MULDIV: { uint32_t v = muldiv((op_raw(c, o) >> 12) & 7, x[o->rs1], x[o->rs2]); if (o->rd) x[o->rd] = v; break; }
  case F_FPU: f[o->rd] = tsim_fp_op(op_raw(c, o), f[o->rs1], f[o->rs2], 0); break;
  case F_FPU_X: { uint32_t v = tsim_fp_op(op_raw(c, o), f[o->rs1], f[o->rs2], 0); if (o->rd) x[o->rd] = v; break; }
  case F_FCVT_SW: f[o->rd] = tsim_fp_op(op_raw(c, o), x[o->rs1], f[o->rs2], 0); break;
  default: f[o->rd] = tsim_fp_op(op_raw(c, o), f[o->rs1], f[o->rs2], f[op_raw(c, o) >> 27]); break;  /* F_FUSED */
  }
  s->suspend = 1;
  s->lat += (unsigned)o->imm;
  c->susp_fpu++;
}

/* Mailbox CSRs and Send: a request to the tile's mailbox (next cycle); a
   read waits for the answer (tsim_core.sv). */
static void exec_mbox(FastRun *r, FastCore *c, unsigned t, const FastOp *o, Step *s) {
  FastMbReq q = {1, o->op == F_SEND, 0, c->id % FAST_NC, t, (unsigned)o->imm, c->x[t][o->rs1], c->x[t][o->rs2]};
  if (!q.send) {
    unsigned f3 = (op_raw(c, o) >> 12) & 7;
    q.wd = (f3 & 4) ? o->rs1 : c->x[t][o->rs1];
    q.wd2 = 0;
    q.wants = o->rd != 0 || q.csr == TinselCsrWaitUntil || q.csr == TinselCsrRecv || q.csr == TinselCsrCanRecv;
  }
  fast_mbox_request(r, c->id / FAST_NC, &q);
  if (q.wants) {
    c->pend_rd[t] = o->rd;
    s->requeue = 0;
    c->susp_mb++;
  }
}

#define WX(v) do { if (o->rd) x[o->rd] = (v); } while (0)

/* Operations that act on the thread's registers and pc alone (no shared
   unit, memory, CSR, mailbox or halt): exec_plain's, which core_batch may
   run back to back. */
static const uint8_t plain_op[F_NUM_OPS] = {
  [F_LUI] = 1, [F_AUIPC] = 1, [F_JAL] = 1, [F_JALR] = 1, [F_BEQ] = 1, [F_BNE] = 1, [F_BLT] = 1, [F_BGE] = 1,
  [F_BLTU] = 1, [F_BGEU] = 1, [F_ADDI] = 1, [F_SLTI] = 1, [F_SLTIU] = 1, [F_XORI] = 1, [F_ORI] = 1, [F_ANDI] = 1,
  [F_SLLI] = 1, [F_SRLI] = 1, [F_SRAI] = 1, [F_ADD] = 1, [F_SUB] = 1, [F_SLL] = 1, [F_SLT] = 1, [F_SLTU] = 1,
  [F_XOR] = 1, [F_SRL] = 1, [F_SRA] = 1, [F_OR] = 1, [F_AND] = 1, [F_FSGNJ] = 1, [F_FSGNJN] = 1, [F_FSGNJX] = 1,
  [F_FMVXW] = 1, [F_FCLASS] = 1, [F_FMVWX] = 1, [F_NOP] = 1,
};

/* Execute plain operation O at PC on registers X and F; the next pc. */
static inline uint32_t exec_plain(const FastCore *c, uint32_t *x, uint32_t *f, uint32_t pc, const FastOp *o) {
  uint32_t a = x[o->rs1], b = x[o->rs2], imm = (uint32_t)o->imm, npc = pc + 4;
  switch (o->op) {
  case F_LUI: WX(imm); break;
  case F_AUIPC: WX(pc + imm); break;
  case F_JAL: WX(pc + 4); npc = pc + imm; break;
  case F_JALR: npc = (a + imm) & ~1u; WX(pc + 4); break;
  case F_BEQ: if (a == b) npc = pc + imm; break;
  case F_BNE: if (a != b) npc = pc + imm; break;
  case F_BLT: if ((int32_t)a < (int32_t)b) npc = pc + imm; break;
  case F_BGE: if ((int32_t)a >= (int32_t)b) npc = pc + imm; break;
  case F_BLTU: if (a < b) npc = pc + imm; break;
  case F_BGEU: if (a >= b) npc = pc + imm; break;
  case F_ADDI: WX(a + imm); break;
  case F_SLTI: WX((int32_t)a < (int32_t)imm); break;
  case F_SLTIU: WX(a < imm); break;
  case F_XORI: WX(a ^ imm); break;
  case F_ORI: WX(a | imm); break;
  case F_ANDI: WX(a & imm); break;
  case F_SLLI: WX(a << imm); break;
  case F_SRLI: WX(a >> imm); break;
  case F_SRAI: WX((uint32_t)((int32_t)a >> imm)); break;
  case F_ADD: WX(a + b); break;
  case F_SUB: WX(a - b); break;
  case F_SLL: WX(a << (b & 31)); break;
  case F_SLT: WX((int32_t)a < (int32_t)b); break;
  case F_SLTU: WX(a < b); break;
  case F_XOR: WX(a ^ b); break;
  case F_SRL: WX(a >> (b & 31)); break;
  case F_SRA: WX((uint32_t)((int32_t)a >> (b & 31))); break;
  case F_OR: WX(a | b); break;
  case F_AND: WX(a & b); break;
  case F_FSGNJ: f[o->rd] = (f[o->rs2] & 0x80000000u) | (f[o->rs1] & 0x7fffffffu); break;
  case F_FSGNJN: f[o->rd] = (~f[o->rs2] & 0x80000000u) | (f[o->rs1] & 0x7fffffffu); break;
  case F_FSGNJX: f[o->rd] = ((f[o->rs1] ^ f[o->rs2]) & 0x80000000u) | (f[o->rs1] & 0x7fffffffu); break;
  case F_FMVXW: WX(f[o->rs1]); break;
  case F_FCLASS: WX(tsim_fp_op(op_raw(c, o), f[o->rs1], f[o->rs2], 0)); break;
  case F_FMVWX: f[o->rd] = a; break;
  default: break;  /* F_NOP */
  }
  return npc;
}

/* Execute the instruction at PC of thread T (the dispatch switch). */
static void exec(FastRun *r, FastCore *c, unsigned t, uint32_t pc, const FastOp *o, Step *s) {
  switch (o->op) {
  case F_LOAD: case F_LOADF: case F_STORE: case F_STOREF: exec_mem(r, c, t, pc, o, s); break;
  case F_MULDIV: case F_FPU: case F_FPU_X: case F_FCVT_SW: case F_FUSED: exec_fpu(c, t, o, s); break;
  case F_CSR: case F_CSR_FLUSH: exec_csr(r, c, t, o, s); break;
  case F_CSR_MBOX: case F_SEND: exec_mbox(r, c, t, o, s); break;
  case F_PROFILE: s->halt = HALT_PROFILE; break;
  default:
    if (plain_op[o->op]) s->npc = exec_plain(c, c->x[t], c->f[t], pc, o);
    else s->halt = HALT_ILLEGAL;
    break;
  }
}

/* ---------------------------------------------------------------- one cycle */

/* Threads start in the first cycle (tsim_core.sv `started`). */
static void start_core(FastCore *c) {
  uint32_t mask = tsim_start_mask(c->id) & ((1u << FAST_T) - 1), entry = tsim_entry(c->id);
  for (unsigned t = 0; t < FAST_T; t++) {
    c->x[t][2] = tsim_initial_sp(c->id, t);
    c->pc[t] = entry;
  }
  c->alive = mask;
  c->run |= mask;
  c->started = 1;
}

/* The thread C issues this cycle: round-robin after the last one, from the
   resume or the run queue, alternating when both have threads. */
static void select_thread(const FastRun *r, FastCore *c) {
  c->sel = -1;
  c->unit = UNIT_NONE;
  if (!(c->run | c->res)) return;
  int use_res = c->res && (c->prefer_res || !c->run);
  uint32_t m = use_res ? c->res : c->run, k = (c->last + 1) & (FAST_T - 1);
  uint32_t rot = ((m >> k) | (m << (FAST_T - k))) & ((1u << FAST_T) - 1);
  c->sel = (int)((k + fast_ctz64(rot)) & (FAST_T - 1));
  c->sel_res = use_res;
  uint32_t pc = c->pc[c->sel];
  if ((pc >> 2) >= r->imem_words || (pc & 3)) return;
  const FastOp *o = &c->code[pc >> 2];
  c->unit = fast_unit(o);
  /* The address decides the port (Tinsel's Core.bsv): below the off-chip
     RAM, the mailbox's scratchpad, which has its own (tsim_core.sv). */
  if (c->unit == UNIT_MEM && o->op != F_CSR_FLUSH &&
      (c->x[c->sel][o->rs1] + (uint32_t)o->imm) >> TinselLogOffChipRAMBaseAddr == 0)
    c->unit = UNIT_SPAD;
}

static void issue(FastRun *r, FastCore *c, unsigned t, int granted) {
  uint32_t pc = c->pc[t], bit = 1u << t;
  if ((pc >> 2) >= r->imem_words || (pc & 3)) {
    tsim_halt(c->id, t, pc, 0, HALT_PC);
    c->alive &= ~bit;
    return;
  }
  if (!granted) {  /* a shared unit served another core: try again */
    c->retry++;
    wheel_put(c, r->cycle + PS - 1, bit);
    return;
  }
  const FastOp *o = &c->code[pc >> 2];
  Step s = {pc + 4, PS, 1, 0, 0};
  exec(r, c, t, pc, o, &s);
  if (s.halt) {
    tsim_halt(c->id, t, pc, op_raw(c, o), s.halt);
    c->alive &= ~bit;
    return;
  }
  c->retired++;
  if (c->prof) c->prof[pc >> 2]++;  /* --pc-profile (one predictable branch when off) */
  r->retired_now = 1;
  c->pc[t] = s.npc;
  if (s.requeue) wheel_put(c, r->cycle + s.lat - 1, s.suspend ? bit << 16 : bit);
}

static void step_core(FastRun *r, FastCore *c, int granted) {
  int t = c->sel;
  if (!c->started) start_core(c);
  unsigned slot = (unsigned)(r->cycle & (FAST_WHEEL - 1));
  if (c->wheel_busy >> slot & 1) {
    c->run |= c->wheel[slot] & 0xffff;
    c->res |= c->wheel[slot] >> 16;
    c->wheel[slot] = 0;
    c->wheel_busy &= ~(1ull << slot);
  }
  if (c->resp_valid) {
    if (c->pend_rd[c->resp_tid]) c->x[c->resp_tid][c->pend_rd[c->resp_tid]] = c->resp_data;
    c->res |= 1u << c->resp_tid;
    c->resp_valid = 0;
  }
  if (t >= 0) {
    c->last = (unsigned)t;
    c->prefer_res = !c->sel_res;
    c->run &= ~(1u << t);
    c->res &= ~(1u << t);
    issue(r, c, (unsigned)t, granted);
    c->issued++;
  }
  if (c->run | c->res) r->any_ready = 1;
}

/* One grant per unit per cycle among the tile's cores, round-robin. */
static unsigned arbitrate(FastTile *tl, const unsigned *want, unsigned unit) {
  for (unsigned k = 0; k < FAST_NC; k++) {
    unsigned i = (tl->next[unit] + k) % FAST_NC;
    if (want[i] == unit) {
      tl->next[unit] = (i + 1) % FAST_NC;
      return i;
    }
  }
  return FAST_NC;
}

/* After a batch or run ahead of N cycles from cycle NOW (0: not possible
   now, threads wait): a short one (a try that costs more than it saves)
   makes the next try wait, doubling the wait up to FAST_BACKOFF; a long
   one ends the waiting. Either way the cycles are the per-cycle
   schedule's. */
static void backoff(unsigned long long *after, unsigned *wait, unsigned long long now, unsigned long long n) {
  if (n >= FAST_SHORT) {
    *wait = 0;
    return;
  }
  *wait = *wait ? (2 * *wait < FAST_BACKOFF ? 2 * *wait : FAST_BACKOFF) : 1;
  *after = now + *wait;
}

/* Core C, from cycle NOW (before its step) up to cycle END at most, while
   every thread it issues runs a plain operation: when all its live threads
   take turns (none waits for a unit, memory or the mailbox, none resumes)
   and there are at least PipelineStages of them, the per-cycle schedule
   issues them round-robin in thread order, one per cycle, each back in
   the run queue before its next turn; so they run here back to back in that
   order, and the queues, the wheel and the counters are then set as the
   per-cycle schedule leaves them. Nothing outside the core can change what
   it does meanwhile: no thread waits for anything. Returns the cycle the
   core has been clocked up to (NOW: nothing run). */
static unsigned long long core_batch(FastRun *r, FastCore *c, unsigned long long now, unsigned long long end) {
  enum { LM = (1u << FAST_T) - 1 };
  unsigned slot = (unsigned)(now & (FAST_WHEEL - 1));
  uint64_t wb = c->wheel_busy, rot = slot ? (wb >> slot) | (wb << (FAST_WHEEL - slot)) : wb;
  if (end < now + 2 * FAST_T) return now;
  if (!c->started || c->res || c->resp_valid || (rot >> (PS - 1)) || fast_popcount64(c->alive & ~c->run) > PS - 1 ||
      fast_popcount64(c->alive) < PS) {
    backoff(&c->batch_after, &c->batch_wait, now, 0);  /* threads wait: the next try waits too */
    return now;
  }
  /* Each live thread's turn, and the cycle from which it is in the run queue. */
  uint8_t order[FAST_T];
  unsigned long long ready[FAST_T];
  uint32_t inw = 0;
  for (unsigned k = 0; k < PS - 1; k++) {
    uint32_t w = c->wheel[(slot + k) & (FAST_WHEEL - 1)];
    if (w >> 16) return now;  /* a thread resumes */
    for (uint32_t m = w & LM; m; m &= m - 1) ready[fast_ctz64(m)] = now + k + 1;
    inw |= w & LM;
  }
  if ((c->run | inw) != c->alive || (c->run & inw)) return now;
  unsigned n = 0;
  for (unsigned k = 1; k <= FAST_T; k++) {
    unsigned t = (c->last + k) & (FAST_T - 1);
    if (!(c->alive >> t & 1)) continue;
    if ((inw >> t & 1) && ready[t] > now + n) return now;  /* not back for its turn */
    order[n++] = (uint8_t)t;
  }
  unsigned long long cyc = now;
  unsigned k = 0;
  const FastOp *code = c->code;
  uint64_t *prof = c->prof;  /* --pc-profile: these retire too (c->retired += j below) */
  while (cyc < end) {
    unsigned t = order[k];
    uint32_t pc = c->pc[t];
    if ((pc >> 2) >= r->imem_words || (pc & 3) || !plain_op[code[pc >> 2].op]) break;
    if (prof) prof[pc >> 2]++;
    c->pc[t] = exec_plain(c, c->x[t], c->f[t], pc, &code[pc >> 2]);
    cyc++;
    if (++k == n) k = 0;
  }
  unsigned long long j = cyc - now;
  backoff(&c->batch_after, &c->batch_wait, now, j);
  if (j == 0) return now;
  /* The queues as the per-cycle schedule leaves them at cycle CYC: the
     threads issued in its last PipelineStages - 1 cycles, and those of the
     old wheel not yet back, are in the wheel; the others in the run queue. */
  uint32_t keep[PS > 1 ? PS - 1 : 1] = {0};
  for (unsigned d = 0; d + j < PS - 1; d++) keep[d] = c->wheel[(slot + j + d) & (FAST_WHEEL - 1)];
  for (unsigned d = 0; d < PS - 1; d++) c->wheel[(slot + d) & (FAST_WHEEL - 1)] = 0;
  c->wheel_busy = 0;
  uint32_t inwheel = 0;
  for (unsigned d = 0; d < PS - 1; d++) {
    /* slot of cycle CYC + d: the old wheel's, or the thread issued at CYC + d - PS + 1 */
    uint32_t w = 0;
    unsigned long long issued_at = cyc + d - (PS - 1);
    if (d + j < PS - 1) w = keep[d];
    else if (issued_at >= now && issued_at < cyc) w = 1u << order[(k + n - (unsigned)((cyc - issued_at) % n)) % n];
    if (w) wheel_put(c, cyc + d, w);
    inwheel |= w;
  }
  c->run = c->alive & ~inwheel;
  c->last = order[(k + n - 1) % n];
  c->prefer_res = 1;
  c->issued += j;
  c->retired += j;
  if (cyc > r->active_until) r->active_until = cyc;
  return cyc;
}

/* Whether the instruction thread T of C would issue now acts only on its
   tile (its core's threads, registers and CSRs, the tile's data cache and
   scratchpad, memory through plain accesses): no mailbox, no output, no
   halt, no end of the run, no global counter. Such instructions may run
   ahead of the other tiles (run_ahead). */
static int local_op(const FastRun *r, const FastCore *c, unsigned t) {
  uint32_t pc = c->pc[t];
  if ((pc >> 2) >= r->imem_words || (pc & 3)) return 0;
  const FastOp *o = &c->code[pc >> 2];
  switch (o->op) {
  case F_LOAD: case F_LOADF: case F_STORE: case F_STOREF: {
    unsigned size = 1u << ((op_raw(c, o) >> 12) & 3);
    int store = o->op == F_STORE || o->op == F_STOREF;
    uint32_t addr = c->x[t][o->rs1] + (uint32_t)o->imm;
    if (size > 4) return 0;
    if (dc_find(c, t, addr) >= 0 && !(addr & (size - 1)) &&
        !(store && addr == r->tohost))
      return 1;
    return tsim_mem_plain(c->id, addr, size, store);
  }
  case F_CSR:
    switch ((unsigned)o->imm) {
    case TinselCsrHartId: case TinselCsrCycle: case TinselCsrCycleU: case TinselCsrCPUIdleCount:
    case TinselCsrCPUIdleCountU: case TinselCsrMissCount: case TinselCsrHitCount: case TinselCsrWritebackCount:
    case TinselCsrFFlag: case TinselCsrFRM: case TinselCsrFCSR: case TinselCsrInstrAddr: case TinselCsrInstr:
    case TinselCsrNewThread: case TinselCsrKillThread: case TinselCsrPerfCount:
      return 1;
    default: return 0;  /* output, the routers' counters, or an unknown CSR (a halt) */
    }
  case F_CSR_MBOX: case F_SEND: case F_PROFILE: case F_ILLEGAL: return 0;
  default: return 1;
  }
}

/* Clock the tile's cores for cycle r->cycle. With PROBE, first check that
   every thread selected to issue runs a local_op, else change nothing and
   return -1. Otherwise 1, or 0 when every core slept. */
static int tile_cores(FastRun *r, FastTile *tl, int probe) {
  FastCore *cs = &r->cores[tl->id * FAST_NC];
  unsigned want[FAST_NC], busy = 0, awake = 0;
  unsigned slot = (unsigned)(r->cycle & (FAST_WHEEL - 1));
  for (unsigned i = 0; i < FAST_NC; i++) {
    FastCore *c = &cs[i];
    if (c->ahead > r->cycle) {  /* clocked to a later cycle (core_batch) */
      want[i] = UNIT_NONE;
      c->sel = -2;
      awake = 1;
      continue;
    }
    if (c->started && !(c->run | c->res) && !(c->wheel_busy >> slot & 1) && !c->resp_valid) {
      want[i] = UNIT_NONE;
      c->sel = -2;  /* asleep this cycle */
      continue;
    }
    if (r->cycle >= c->batch_after && r->quantum && (c->ahead = core_batch(r, c, r->cycle, r->batch_end)) > r->cycle) {
      want[i] = UNIT_NONE;
      c->sel = -2;
      awake = 1;
      continue;
    }
    select_thread(r, c);
    if (probe && c->sel >= 0 && !local_op(r, c, (unsigned)c->sel)) return -1;
    want[i] = c->unit;
    busy |= 1u << c->unit;
    awake = 1;
  }
  unsigned gnt[5] = {FAST_NC, FAST_NC, FAST_NC, FAST_NC, FAST_NC};
  for (unsigned u = UNIT_FPU; u <= UNIT_SPAD; u++)
    if (busy >> u & 1) gnt[u] = arbitrate(tl, want, u);
  for (unsigned i = 0; i < FAST_NC; i++)
    if (cs[i].sel != -2) step_core(r, &cs[i], want[i] == UNIT_NONE || gnt[want[i]] == i);
  return (int)awake;
}

/* The first cycle >= AT in which a core of TL has a thread due from its
   wheel, or ~0 when none has. */
static unsigned long long tile_next_event(const FastRun *r, const FastTile *tl, unsigned long long at) {
  unsigned long long best = ~0ull;
  unsigned now = (unsigned)(at & (FAST_WHEEL - 1));
  for (unsigned i = 0; i < FAST_NC; i++) {
    const FastCore *c = &r->cores[tl->id * FAST_NC + i];
    uint64_t b = c->wheel_busy;
    if (c->ahead > at) {
      if (c->ahead < best) best = c->ahead;
      continue;
    }
    if (!b) continue;
    uint64_t rot = now ? (b >> now) | (b << (FAST_WHEEL - now)) : b;
    unsigned long long e = at + fast_ctz64(rot);
    if (e < best) best = e;
  }
  return best;
}

/* No thread of TL waits for its mailbox, nor will an answer come: what
   its cores do next depends on nothing outside the tile until one of them
   issues a non-local instruction. */
static int tile_alone(const FastRun *r, const FastTile *tl) {
  for (unsigned i = 0; i < FAST_NC; i++)
    if (r->cores[tl->id * FAST_NC + i].resp_valid) return 0;
  return fast_mbox_no_waits(r, tl->id);
}

/* Run TL's cores ahead of the run, from the next cycle until one of them
   would issue a non-local instruction, for at most r->quantum cycles (and
   not past r->limit): exactly the cycles the per-cycle schedule would give
   them, as nothing from outside can reach them meanwhile. The run then
   clocks only the tile's mailbox until it catches up (tl->ahead). */
static void run_ahead(FastRun *r, FastTile *tl) {
  unsigned long long now = r->cycle, end = now + r->quantum, cyc = now + 1;
  int retired_now = r->retired_now, any_ready = r->any_ready;
  if (end > r->limit) end = r->limit;
  r->batch_end = end;
  while (cyc < end) {
    r->cycle = cyc;
    r->retired_now = 0;
    int k = tile_cores(r, tl, 1);
    if (k < 0) break;
    if (r->retired_now && cyc + 1 > r->active_until) r->active_until = cyc + 1;
    if (k == 0) {  /* every core asleep: on to the next thread due */
      unsigned long long next = tile_next_event(r, tl, cyc);
      if (next == ~0ull) break;
      cyc = next < end ? next : end;
      continue;
    }
    cyc++;
  }
  tl->ahead = cyc;
  backoff(&tl->ahead_after, &tl->ahead_wait, now, cyc - now - 1);
  r->cycle = now;
  r->retired_now = retired_now;
  r->any_ready = any_ready;
}

/* After clocking TL for r->cycle: the first cycle in which clocking it can
   change anything while its mailbox has no work: its cores' next thread
   due from a wheel when every core slept (AWAKE 0), or the cycle its cores
   were run ahead to; else the next cycle. (Only the mailbox, through new
   work, and the wheels wake a sleeping core: a message for it, idle
   detection or an answer make the mailbox live, or set a core's answer.) */
static unsigned long long tile_wakes(const FastRun *r, const FastTile *tl, int here, int awake) {
  unsigned long long next = r->cycle + 1;
  if (fast_mbox_tile_busy(r, tl->id)) return next;
  if (!here || tl->ahead > next) return tl->ahead > next ? tl->ahead : next;
  if (awake) return next;
  for (unsigned i = 0; i < FAST_NC; i++) {
    const FastCore *c = &r->cores[tl->id * FAST_NC + i];
    if (!c->started || c->resp_valid || c->run | c->res) return next;
  }
  unsigned long long e = tile_next_event(r, tl, next);
  return e > next ? e : next;
}

static void step_tile(FastRun *r, FastTile *tl) {
  int here = tl->ahead <= r->cycle, awake = 1;
  r->batch_end = r->cycle + r->quantum < r->limit ? r->cycle + r->quantum : r->limit;
  if (here) awake = tile_cores(r, tl, 0);
  if (fast_mbox_tile_busy(r, tl->id)) fast_mbox_step(r, tl->id);
  if (here && r->quantum && r->cycle >= tl->ahead_after) {
    if (tile_alone(r, tl)) run_ahead(r, tl);
    else backoff(&tl->ahead_after, &tl->ahead_wait, r->cycle, 0);
  }
  tl->sleep_until = tile_wakes(r, tl, here, awake);
}

void fast_cycle(FastRun *r) {
  r->retired_now = 0;
  r->any_ready = 0;
  r->mbox_stepped = 0;
  for (unsigned t = r->tile_lo; t < r->tile_hi; t++) {
    FastTile *tl = &r->tiles[t];
    /* Asleep (tile_wakes): clocking it would change nothing. */
    if (tl->sleep_until > r->cycle && !r->idle_release && !fast_mbox_tile_busy(r, t)) continue;
    step_tile(r, tl);
  }
  if (r->mbox_stepped || r->idle_release) {
    fast_mbox_idle(r);
    if (fast_mbox_busy(r)) r->any_ready = 1;
  }
}

unsigned long long fast_next_event(const FastRun *r) {
  unsigned long long best = ~0ull;
  for (unsigned t = r->tile_lo; t < r->tile_hi; t++) {
    const FastTile *tl = &r->tiles[t];
    unsigned long long at = tl->ahead >= r->cycle ? tl->ahead : tile_next_event(r, tl, r->cycle);
    for (unsigned i = 0; tl->ahead < r->cycle && i < FAST_NC; i++)  /* clocked to here: threads may be ready */
      if (!r->cores[t * FAST_NC + i].started || r->cores[t * FAST_NC + i].ahead == r->cycle) return r->cycle;
    if (at < best) best = at;
  }
  return best;
}

void fast_final(FastRun *r) {
  for (unsigned i = r->tile_lo * FAST_NC; i < r->tile_hi * FAST_NC; i++) {
    FastCore *c = &r->cores[i];
    unsigned long long idle = r->cycle > c->issued ? r->cycle - c->issued : 0;  /* a core run ahead may have issued more */
    tsim_core_stats(c->id, c->retired, idle, c->susp_mem, c->susp_fpu, c->susp_mb, c->retry);
    uint32_t in_wheel = 0;
    for (unsigned w = 0; w < FAST_WHEEL; w++) in_wheel |= c->wheel[w] | c->wheel[w] >> 16;
    for (unsigned t = 0; t < FAST_T; t++)
      tsim_thread_state(c->id, t, c->alive >> t & 1, ((c->run | c->res | in_wheel) >> t) & 1, c->pc[t]);
  }
  for (unsigned t = r->tile_lo; t < r->tile_hi; t++) {
    FastTile *tl = &r->tiles[t];
    tile_count(tl, r->cycle);  /* accesses the latency model saw before the run stopped */
    tsim_cache_stats(t, tl->hits, tl->misses, tl->writebacks);
  }
  fast_mbox_final(r);
}
