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

typedef struct {
  uint32_t tag;          /* the thread's address of the line's first byte */
  TsimDcacheLine mem;    /* where the line reads and writes memory */
  uint8_t valid, dirty;
  uint8_t data[LINE];
} Line;

/* The tile model (rtl_models/tsim_tile.sv) has one cache for its cores. */
_Static_assert(TinselLogCoresPerDCache == TinselLogCoresPerMailbox, "one data cache per tile");

/* The lines' tags again, side by side, for the search of a set: a valid
   line's tag + 1 (tags are line-aligned), 0 for an invalid one. */
typedef struct {
  Line line[PARTS][SETS][WAYS];
  uint32_t key[PARTS][SETS][WAYS];
  uint8_t victim[PARTS][SETS];  /* the way the next miss replaces */
} Cache;

static Cache *caches[CACHES];
static int coherent;

void tsim_dcache_set_coherent(int on) { coherent = on; }

static Cache *cache_of(unsigned core) {
  unsigned c = core / CORES;
  if (!caches[c]) {
    caches[c] = calloc(1, sizeof *caches[c]);
    if (!caches[c]) {
      fprintf(stderr, "tsim: error: out of memory for the data cache of tile %u (%zu bytes)\n", c,
              sizeof *caches[c]);
      exit(1);
    }
  }
  return caches[c];
}

static unsigned part_of(unsigned core, unsigned thread) {
  return (core % CORES) * TinselThreadsPerCore + thread;
}

/* Lines are aligned, so a line is within one page of the sparse store
   (host little-endian, as Tinsel). */
_Static_assert(LINE <= 4096, "a line within a page");
static void line_read(Line *l) { tsim_mem_read_block(l->mem.space, l->mem.phys, l->data, LINE); }
static void line_write(const Line *l) { tsim_mem_write_block(l->mem.space, l->mem.phys, l->data, LINE); }

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

/* Write L back if it is dirty; returns TSIM_DC_WRITEBACK if it was. */
static unsigned evict(Line *l) {
  unsigned wb = l->valid && l->dirty ? TSIM_DC_WRITEBACK : 0;
  if (wb && !coherent) line_write(l);
  l->valid = l->dirty = 0;
  return wb;
}

unsigned tsim_dcache_access(unsigned core, unsigned thread, uint32_t addr, TsimDcacheLine line, unsigned size,
                            int store, uint32_t *value) {
  Cache *c = cache_of(core);
  unsigned part = part_of(core, thread), set = (addr / LINE) % SETS, off = addr % LINE;
  uint32_t tag = addr - off;
  Line *ways = c->line[part][set], *l;
  unsigned outcome = TSIM_DC_HIT;
  int w = find(c, part, set, tag);
  if (w >= 0) {
    l = &ways[w];
  } else {
    w = c->victim[part][set];
    l = &ways[w];
    c->victim[part][set] = (uint8_t)((c->victim[part][set] + 1) % WAYS);
    outcome = (addr >= TinselSRAMBase && addr < TinselDRAMBase ? TSIM_DC_MISS_SRAM : TSIM_DC_MISS_DRAM) | evict(l);
    l->tag = tag;
    l->mem = line;
    l->valid = 1;
    c->key[part][set][w] = tag + 1;
    if (!coherent) line_read(l);
  }
  if (store) {
    l->dirty = 1;
    if (coherent) tsim_mem_write(line.space, line.phys + off, size, *value);
    else copy_bytes(&l->data[off], value, size);  /* the low SIZE bytes, little-endian host */
  } else if (coherent) {
    *value = tsim_mem_read(line.space, line.phys + off, size);
  } else {
    *value = 0;
    copy_bytes(value, &l->data[off], size);
  }
  return outcome;
}

uint8_t *tsim_dcache_line_ref(unsigned core, unsigned thread, uint32_t addr, uint8_t **dirty) {
  Cache *c = caches[core / CORES];
  if (!c || coherent) return NULL;
  unsigned part = part_of(core, thread), set = (addr / LINE) % SETS;
  int w = find(c, part, set, addr - addr % LINE);
  if (w < 0) return NULL;
  *dirty = &c->line[part][set][w].dirty;
  return c->line[part][set][w].data;
}

unsigned tsim_dcache_flush(unsigned core, unsigned thread, uint32_t value) {
  unsigned way = value % WAYS, set = (value / WAYS) % SETS;
  Cache *c = caches[core / CORES];
  if (!c) return TSIM_DC_FLUSH;  /* nothing cached on this tile yet */
  c->key[part_of(core, thread)][set][way] = 0;
  return TSIM_DC_FLUSH | evict(&c->line[part_of(core, thread)][set][way]);
}

unsigned long long tsim_dcache_dirty_lines(void) {
  unsigned long long n = 0;
  for (unsigned c = 0; c < CACHES; c++) {
    if (!caches[c]) continue;
    for (unsigned p = 0; p < PARTS; p++)
      for (unsigned s = 0; s < SETS; s++)
        for (unsigned w = 0; w < WAYS; w++) n += caches[c]->line[p][s][w].valid && caches[c]->line[p][s][w].dirty;
  }
  return n;
}

void tsim_dcache_free_all(void) {
  for (unsigned c = 0; c < CACHES; c++) {
    free(caches[c]);
    caches[c] = NULL;
  }
}
