/* tsim_dcache.c: the data caches' contents (tsim_dcache.h). Each tile's
   cache is allocated when its first access arrives, so a run pays only for
   the tiles it uses (a box has 96). */
#include "tsim_dcache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tsim_boards.h"
#include "tsim_mem.h"

enum {
  CORES = 1u << TinselLogCoresPerDCache,  /* cores sharing a cache */
  WAYS = 1u << TinselDCacheLogNumWays,
  SETS = 1u << TinselDCacheLogSetsPerThread,
  LINE = TinselBytesPerLine,
  PARTS = CORES * TinselThreadsPerCore,  /* one per thread */
  CACHES = TSIM_CORES / CORES
};

/* Each partition's lines by field, so that a set's search reads one host
   cache line of keys and an access one host cache line of bytes (the cache
   is allocated 64-byte aligned): a valid line's tag (the thread's address
   of its first byte) + 1, 0 for an invalid one; its bytes; its dirty flag;
   where it reads and writes memory. */
typedef struct {
  uint8_t data[PARTS][SETS][WAYS][LINE];
  uint32_t key[PARTS][SETS][WAYS];
  uint8_t dirty[PARTS][SETS][WAYS];
  uint8_t victim[PARTS][SETS];  /* the way the next miss replaces */
  TsimDcacheLine mem[PARTS][SETS][WAYS];
} Cache;

/* The tile model (rtl_models/tsim_tile.sv) has one cache for its cores. */
_Static_assert(TinselLogCoresPerDCache == TinselLogCoresPerMailbox, "one data cache per tile");
_Static_assert((LINE <= 64 && 64 % LINE == 0) || LINE % 64 == 0, "a line within one host cache line");

static Cache *caches[CACHES];
static int coherent;

void tsim_dcache_set_coherent(int on) { coherent = on; }

static Cache *cache_of(unsigned core) {
  unsigned c = core / CORES;
  if (!caches[c]) {
    size_t size = (sizeof *caches[c] + 63) / 64 * 64;  /* aligned_alloc wants a multiple of the alignment */
    caches[c] = aligned_alloc(64, size);
    if (!caches[c]) {
      fprintf(stderr, "tsim: error: out of memory for the data cache of tile %u (%zu bytes)\n", c, size);
      exit(1);
    }
    memset(caches[c], 0, size);
  }
  return caches[c];
}

static unsigned part_of(unsigned core, unsigned thread) {
  return (core % CORES) * TinselThreadsPerCore + thread;
}

/* Lines are aligned, so a line is within one page of the sparse store
   (host little-endian, as Tinsel). */
_Static_assert(LINE <= 4096, "a line within a page");

/* SIZE (1, 2 or 4) bytes: fixed-size copies the compiler inlines (an
   access is too short for a call to memcpy). */
static void copy_bytes(void *to, const void *from, unsigned size) {
  if (size == 4) memcpy(to, from, 4);
  else if (size == 2) memcpy(to, from, 2);
  else memcpy(to, from, 1);
}

/* The way of set SET of partition PART holding TAG, or -1. */
static int find(const Cache *c, unsigned part, unsigned set, uint32_t tag) {
  const uint32_t *k = c->key[part][set];
  for (unsigned w = 0; w < WAYS; w++)
    if (k[w] == tag + 1) return (int)w;
  return -1;
}

/* Write way W of set SET of partition P back if it is valid and dirty;
   returns TSIM_DC_WRITEBACK if it was. Then it is clean. */
static unsigned evict(Cache *c, unsigned p, unsigned set, unsigned w) {
  unsigned wb = c->key[p][set][w] && c->dirty[p][set][w] ? TSIM_DC_WRITEBACK : 0;
  if (wb && !coherent) tsim_mem_write_block(c->mem[p][set][w].space, c->mem[p][set][w].phys, c->data[p][set][w], LINE);
  c->dirty[p][set][w] = 0;
  return wb;
}

unsigned tsim_dcache_access(unsigned core, unsigned thread, uint32_t addr, TsimDcacheLine line, unsigned size,
                            int store, uint32_t *value) {
  Cache *c = cache_of(core);
  unsigned part = part_of(core, thread), set = (addr / LINE) % SETS, off = addr % LINE;
  uint32_t tag = addr - off;
  unsigned outcome = TSIM_DC_HIT;
  int w = find(c, part, set, tag);
  if (w < 0) {
    w = c->victim[part][set];
    c->victim[part][set] = (uint8_t)((c->victim[part][set] + 1) % WAYS);
    outcome = (addr >= TinselSRAMBase && addr < TinselDRAMBase ? TSIM_DC_MISS_SRAM : TSIM_DC_MISS_DRAM) |
              evict(c, part, set, (unsigned)w);
    c->mem[part][set][w] = line;
    c->key[part][set][w] = tag + 1;
    if (!coherent) tsim_mem_read_block(line.space, line.phys, c->data[part][set][w], LINE);
  }
  uint8_t *d = &c->data[part][set][w][off];
  if (store) {
    c->dirty[part][set][w] = 1;
    if (coherent) tsim_mem_write(line.space, line.phys + off, size, *value);
    else copy_bytes(d, value, size);  /* the low SIZE bytes, little-endian host */
  } else if (coherent) {
    *value = tsim_mem_read(line.space, line.phys + off, size);
  } else {
    *value = 0;
    copy_bytes(value, d, size);
  }
  return outcome;
}

int tsim_dcache_ref(unsigned core, TsimDcacheRef *ref) {
  Cache *c = caches[core / CORES];
  if (!c || coherent) return -1;
  unsigned part = part_of(core, 0);
  ref->key = &c->key[part][0][0];
  ref->data = &c->data[part][0][0][0];
  ref->dirty = &c->dirty[part][0][0];
  return 0;
}

unsigned tsim_dcache_flush(unsigned core, unsigned thread, uint32_t value) {
  unsigned way = value % WAYS, set = (value / WAYS) % SETS;
  Cache *c = caches[core / CORES];
  if (!c) return TSIM_DC_FLUSH;  /* nothing cached on this tile yet */
  unsigned p = part_of(core, thread), wb = evict(c, p, set, way);
  c->key[p][set][way] = 0;
  return TSIM_DC_FLUSH | wb;
}

unsigned long long tsim_dcache_dirty_lines(void) {
  unsigned long long n = 0;
  for (unsigned c = 0; c < CACHES; c++) {
    if (!caches[c]) continue;
    for (unsigned p = 0; p < PARTS; p++)
      for (unsigned s = 0; s < SETS; s++)
        for (unsigned w = 0; w < WAYS; w++) n += caches[c]->key[p][s][w] && caches[c]->dirty[p][s][w];
  }
  return n;
}

void tsim_dcache_free_all(void) {
  for (unsigned c = 0; c < CACHES; c++) {
    free(caches[c]);
    caches[c] = NULL;
  }
}
