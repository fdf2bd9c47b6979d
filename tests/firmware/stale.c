// stale.c: Tinsel's data caches are write-back and not coherent (tinsel.md
// §11). A writer (thread 0 of core 0) and a reader (thread 0 of core 1) on
// one tile share two words in DRAM; they take turns through a flag in the
// tile's scratchpad, which is not cached. The reader prints what it saw:
//   1. the writer stored 222 over 111 and did not flush: the reader's miss
//      reads memory, which still holds 111;
//   2. the writer flushed: the reader's own line still holds 111 (stale in
//      the reader's cache);
//   3. the reader flushed its own line too: 222;
//   4. the writer stored 333 to another word and then touched enough lines
//      of the same set to evict it: the write-back on eviction makes 333
//      visible without a flush.
// With tsim --coherent-dcache every read sees the latest store. run.sh
// checks both; tohost = 1 ends the run.
#include <stdio.h>
#include "tinsel.h"

volatile uint32_t tohost;
// A line each: the reader must not hold y's line when it reads x.
volatile uint32_t shared_x __attribute__((aligned(TinselBytesPerLine))) = 111;
volatile uint32_t shared_y __attribute__((aligned(TinselBytesPerLine))) = 1;

enum { SETS = 1u << TinselDCacheLogSetsPerThread, WAYS = 1u << TinselDCacheLogNumWays };
// WAYS + 1 lines in shared_y's set (one set's stride apart), to evict it.
static volatile uint32_t fill[(WAYS + 1) * SETS * TinselBytesPerLine / 4]
    __attribute__((aligned(TinselBytesPerLine * SETS)));

// The last message slot of the tile's scratchpad: no thread here sends.
#define FLAG (*(volatile uint32_t *)(uintptr_t)(TinselScratchpadBase + TinselBytesPerMailbox - TinselBytesPerMsg))

static void wait_flag(uint32_t v) { while (FLAG != v) {} }

static void writer(void) {
  shared_x = 222;                      // stays in the writer's line
  FLAG = 1;
  wait_flag(2);
  tinselCacheFlush();                  // now memory holds 222
  FLAG = 3;
  wait_flag(4);
  shared_y = 333;
  // fill is aligned to a whole round of sets, so line set_of_y + k * SETS is in y's set.
  uint32_t set_of_y = ((uint32_t)(uintptr_t)&shared_y / TinselBytesPerLine) % SETS;
  for (uint32_t k = 0; k <= WAYS; k++) (void)fill[(set_of_y + k * SETS) * TinselBytesPerLine / 4];
  FLAG = 5;
}

static void reader(void) {
  uint32_t seen[4];
  wait_flag(1);
  seen[0] = shared_x;                  // a miss: memory's value
  FLAG = 2;
  wait_flag(3);
  seen[1] = shared_x;                  // a hit on the reader's own old line
  tinselCacheFlush();
  seen[2] = shared_x;                  // a miss again: the flushed value
  FLAG = 4;
  wait_flag(5);
  seen[3] = shared_y;                  // written back when evicted
  printf("stale: %u %u %u %u\n", (unsigned)seen[0], (unsigned)seen[1], (unsigned)seen[2], (unsigned)seen[3]);
  tohost = 1;
}

int main(void) {
  uint32_t me = tinselId();
  uint32_t core = (me >> TinselLogThreadsPerCore) & (TinselCoresPerMailbox - 1);
  if (me & (TinselThreadsPerCore - 1) || core > 1 || (me >> (TinselLogThreadsPerCore + TinselLogCoresPerMailbox)) != 0) {
    tinselKillThread();
  }
  if (core == 0) writer();
  else reader();
  for (;;) {}
}
