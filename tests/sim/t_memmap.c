/* tests/sim/t_memmap.c: every data region of the memory map holds what a
 * thread writes there (boards/memmap.cfg; tinsel.md section 1.7). Each thread
 * (run with --all-threads) writes a pattern over SWEEP_BYTES of its own part
 * of each region, twice the size of its cache partition so lines are evicted
 * and written back, reads it back, flushes its cache and reads it again.
 * Parts: its SRAM and interleaved-DRAM partitions (Tinsel's heap formulas),
 * disjoint slices of the DRAM globals and the upper DRAM, and its 64-byte
 * scratchpad slot, read back through the scratchpad alias as well.
 * Last, the first line of the thread's interleaved partition is read through
 * the plain upper-DRAM alias, where Tinsel's interleaving puts it (tinsel.md
 * 1.7: DRAM address = partition offset, partition index, byte in line).
 * Failure code: 1 + region index, 10 + region index after the flush,
 * 20 the scratchpad alias, 21 the upper-DRAM alias (the address, result and
 * expected value are emitted).
 */
#include "test.h"
#include "tinsel_config.h"

#define SWEEP_BYTES (2 * TinselDCacheBytesPerThread)
#define STRIDE 8

static uint8_t globals_part[TinselThreadsPerDRAM][SWEEP_BYTES] __attribute__((aligned(TinselBytesPerLine)));

static uint32_t pattern(uintptr_t addr, uint32_t t) { return (uint32_t)addr ^ (t * 0x01010101u) ^ 0x5a5a5a5au; }

static int check(uintptr_t base, uint32_t bytes, uint32_t t, int code)
{
  for (uintptr_t a = base; a < base + bytes; a += STRIDE) {
    uint32_t got = *(volatile uint32_t *)a;
    if (got != pattern(a, t)) {
      sim_emit(a);
      sim_emit(got);
      sim_emit(pattern(a, t));
      return code;
    }
  }
  return 0;
}

int main(void)
{
  uint32_t start = sim_cycle();
  uint32_t id = sim_thread_id();
  uint32_t part = id & (TinselThreadsPerDRAM - 1);
  const struct { uintptr_t base; uint32_t bytes; } regions[] = {
    { TinselMemSRAMABase + ((uintptr_t)part << TinselLogBytesPerSRAMPartition), SWEEP_BYTES },
    { (TinselBytesPerDRAM - ((uintptr_t)(part + 1) << TinselLogBytesPerDRAMPartition)) | 0x80000000u, SWEEP_BYTES },
    { (uintptr_t)globals_part[part], SWEEP_BYTES },
    /* the interleaved region aliases the whole upper DRAM: keep clear of the
     * lines holding the partitions' bottoms (low) and stacks (high) */
    { TinselMemDRAMUpperBase + TinselMemDRAMUpperSize / 2 + (uintptr_t)part * SWEEP_BYTES, SWEEP_BYTES },
    { TinselMemScratchpadBase + (id % TinselThreadsPerMailbox) * TinselBytesPerMsg, TinselBytesPerMsg },
  };
  for (uint32_t r = 0; r < NELEMS(regions); r++)
    for (uintptr_t a = regions[r].base; a < regions[r].base + regions[r].bytes; a += STRIDE)
      *(volatile uint32_t *)a = pattern(a, id);
  for (uint32_t r = 0; r < NELEMS(regions); r++) {
    int bad = check(regions[r].base, regions[r].bytes, id, (int)r + 1);
    if (bad) return bad;
  }
  sim_flush();
  for (uint32_t r = 0; r < NELEMS(regions); r++) {
    int bad = check(regions[r].base, regions[r].bytes, id, (int)r + 10);
    if (bad) return bad;
  }
  /* the alias reads the same scratchpad words, by address minus the base */
  uintptr_t slot = regions[NELEMS(regions) - 1].base;
  for (uint32_t off = 0; off < TinselBytesPerMsg; off += STRIDE) {
    uint32_t got = *(volatile uint32_t *)(slot - TinselMemScratchpadBase + off);
    if (got != pattern(slot + off, id)) {
      sim_emit(slot - TinselMemScratchpadBase + off);
      sim_emit(got);
      return 20;
    }
  }
  /* the interleaved partition's first line, seen through the plain upper
   * DRAM: line offset 0 of every partition comes first, by partition index */
  uintptr_t heap = regions[1].base;
  uintptr_t plain = TinselMemDRAMUpperBase +
    (((heap & (TinselMemDRAMUpperSize - 1)) >> TinselLogBytesPerDRAMPartition) << TinselLogBytesPerLine);
  for (uint32_t off = 0; off < TinselBytesPerLine; off += STRIDE) {
    uint32_t got = *(volatile uint32_t *)(plain + off);
    if (got != pattern(heap + off, id)) {
      sim_emit(plain + off);
      sim_emit(got);
      return 21;
    }
  }
  sim_join(start);
  return 0;
}
