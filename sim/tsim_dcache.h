/* tsim_dcache.h: Tinsel's data caches as a program sees them. One cache per
   tile (shared by its CoresPerDCache cores), partitioned by thread: a thread's
   lines live in its own DCacheLogSetsPerThread sets of 2^DCacheLogNumWays
   ways, BytesPerLine each, write-back, with round-robin replacement per set.
   Nothing keeps them coherent: a store stays in the storing thread's line
   until the line is flushed (CSR Flush) or evicted, and a line read before
   another thread's writeback keeps the old value (tinsel.md §11). The
   ProgRouter and the host see memory, not caches.

   tsim_dpi.c performs every load and store through here; the outcome goes
   back to the tile's latency model (rtl_models/tsim_dcache.sv), so the
   cache that decides a latency is the cache that holds the data.
   `tsim --coherent-dcache` keeps the same lines and latencies but reads and
   writes memory directly: what a program would see with coherent caches. */
#ifndef TSIM_DCACHE_H
#define TSIM_DCACHE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An access's outcome (low 3 bits) and whether it wrote a dirty line back
   (TSIM_DC_WRITEBACK); rtl_models/tsim_dcache.sv decodes the same values. */
enum {
  TSIM_DC_SCRATCHPAD = 0,  /* not cached */
  TSIM_DC_HIT = 1,
  TSIM_DC_MISS_SRAM = 2,
  TSIM_DC_MISS_DRAM = 3,
  TSIM_DC_FLUSH = 4,       /* CSR Flush: neither hit nor miss */
  TSIM_DC_WRITEBACK = 8
};

/* Where a line of the cache reads and writes memory: SPACE and PHYS of
   tsim_mem.h, given the thread's address (tsim_dpi.c's memory map). */
typedef struct {
  unsigned space;
  uint32_t phys;
} TsimDcacheLine;

/* Load (STORE 0) or store SIZE bytes at ADDR by THREAD of run-wide CORE.
   LINE is where ADDR's line lives in memory (its first byte). *VALUE is the
   value stored, or receives the bytes loaded (zero-extended). Returns the
   outcome. The caller has checked alignment and that ADDR is cached memory. */
unsigned tsim_dcache_access(unsigned core, unsigned thread, uint32_t addr, TsimDcacheLine line, unsigned size,
                            int store, uint32_t *value);
/* CSR Flush by THREAD of CORE: VALUE is (line within the thread's sets <<
   DCacheLogNumWays) | way. Writes the line back if dirty, then invalidates it. */
unsigned tsim_dcache_flush(unsigned core, unsigned thread, uint32_t value);
/* The lines of CORE's threads, for the fast engine (sim/fast/), which serves
   hits itself: thread T's line of set S, way W is index
   (T * 2^DCacheLogSetsPerThread + S) * 2^DCacheLogNumWays + W of KEY (its tag
   + 1, 0 when the way is invalid) and DIRTY, its bytes BytesPerLine times
   that from DATA. A hit reads or writes the bytes (and sets DIRTY on a
   store) as tsim_dcache_access would; anything else goes through
   tsim_dcache_access. 0, or -1 when the tile's cache is not allocated yet
   (before its first access) or in coherent mode. The pointers stay valid
   until tsim_dcache_free_all. */
typedef struct {
  const uint32_t *key;
  uint8_t *data, *dirty;
} TsimDcacheRef;
int tsim_dcache_ref(unsigned core, TsimDcacheRef *ref);
/* Coherent mode (tsim --coherent-dcache): memory is read and written directly. */
void tsim_dcache_set_coherent(int on);
/* Lines still dirty in every cache (end-of-run report), and freeing. */
unsigned long long tsim_dcache_dirty_lines(void);
void tsim_dcache_free_all(void);

#ifdef __cplusplus
}
#endif

#endif
