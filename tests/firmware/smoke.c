// smoke.c: tinsel.h and the libc on the cycle model (tsim). All 16 threads
// of the core check their id, stack, heap base, the software divide, sqrtf
// and double, and post a result word in their own send slot (scratchpad: shared
// by the tile and uncached, unlike DRAM). Thread 0 collects the 16 words,
// prints a report on the debug link and stores the verdict to tohost.
#include <math.h>
#include <stdio.h>
#include "tinsel.h"

volatile uint32_t tohost;   // tsim stops when a thread stores here (1 = pass)

#define OK_TAG 0x600d0000u

static uint32_t bits(float f) { union { float f; uint32_t u; } c = { .f = f }; return c.u; }
static uint64_t dbits(double d) { union { double d; uint64_t u; } c = { .d = d }; return c.u; }

// 0, or the number of the first check that failed.
static uint32_t checks(uint32_t me, uint32_t c0) {
  volatile uint32_t local = 0;
  uint32_t sp = (uint32_t)(uintptr_t)&local, heap = tinselHeapBaseGeneric(me);
  if ((uint32_t)(uintptr_t)tinselHeapBase() != heap) return 1;
  if (sp - heap >= TinselBytesPerDRAMPartition) return 2;   // own partition (wraps at 2^32)
  volatile uint32_t n = 1000 + me, d = 7;
  if (n / d != (1000 + me) / 7 || n % d != (1000 + me) % 7) return 3;
  volatile float two = 2.0f;
  if (bits(sqrtf(two)) != 0x3fb504f3u) return 4;                      // correctly rounded
  if (tinselCycleCount() == c0) return 5;
  uint32_t bx, by, tx, ty, c, t;
  tinselFromAddr(me, &bx, &by, &tx, &ty, &c, &t);
  if (tinselToAddr(bx, by, tx, ty, c, t) != me) return 6;
  volatile double one = 1.0, three = 3.0, tenth = 0.1, fifth = 0.2, dtwo = 2.0;  // software double
  if (dbits(one / three) != 0x3fd5555555555555ull || dbits(tenth + fifth) != 0x3fd3333333333334ull ||
      dbits(sqrt(dtwo)) != 0x3ff6a09e667f3bcdull || (int)(three * 1e8) != 300000000 || (unsigned)(three * 1e9) != 3000000000u ||
      (float)(tenth) != 0.1f) return 7;
  return 0;
}

int main(void) {
  uint32_t me = tinselId(), c0 = tinselCycleCount();
  uint32_t fail = checks(me, c0);
  volatile uint32_t *slot = tinselSendSlot();
  slot[0] = OK_TAG | (fail << 8) | (me & 0xffu);
  tinselEmit(me);
  if (me & (TinselThreadsPerCore - 1)) return 0;
  // Thread 0: wait for the core's 16 result words.
  uint32_t first = (me & (TinselThreadsPerMailbox - 1)), bad = 0;
  for (uint32_t i = 0; i < TinselThreadsPerCore; i++) {
    volatile uint32_t *w = (volatile uint32_t *)(uintptr_t)(TinselScratchpadBase +
                                                            ((first + i) << TinselLogBytesPerMsg));
    while ((*w & 0xffff0000u) != OK_TAG) {}
    if ((*w & 0xffu) != ((me + i) & 0xffu) || (*w & 0xff00u)) bad = bad ? bad : (*w & 0xff00u) >> 8 | 0x80u;
  }
  printf("smoke: thread 0x%x of %u: cycle %u..%u, heap 0x%x, sqrtf(2) 0x%x, %s\n", (unsigned)me,
         (unsigned)TinselThreadsPerCore, (unsigned)c0, (unsigned)tinselCycleCount(),
         (unsigned)tinselHeapBaseGeneric(me), (unsigned)bits(sqrtf(2.0f)), bad ? "FAIL" : "ok");
  tohost = bad ? (bad << 1) | 1u : 1u;
  return 0;
}
