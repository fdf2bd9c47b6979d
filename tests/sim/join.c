/* tests/sim/join.c: sim_join, the barrier at the end of the multithreaded
 * tests (run with --all-threads).
 *
 * Threads share memory only through their DRAM slice's globals, and the data
 * caches are not coherent, so a thread publishes its slot by writing it and
 * flushing its cache partition, and a waiter flushes before each look. Slots
 * are one cache line each so that write-backs never clobber a neighbour.
 * Thread 0 of each core waits for its core's threads, then marks the core
 * done; thread 0 waits for the cores of its slice. Without a mailbox, slices
 * other than thread 0's are invisible to it: their threads report a failure
 * through tohost themselves, and thread 0 allows them twice its own run time
 * (since start_cycle) before it returns.
 */
#include "test.h"
#include "tinsel_config.h"

struct slot { volatile uint32_t done; uint32_t pad[TinselBytesPerLine / 4 - 1]; };
static struct slot thread_slot[TinselNumThreads] __attribute__((aligned(TinselBytesPerLine)));
static struct slot core_slot[TinselNumCores] __attribute__((aligned(TinselBytesPerLine)));

static void publish(struct slot *s)
{
  s->done = 1;
  sim_flush();
}

static void wait_all(struct slot *s, uint32_t n)
{
  for (uint32_t i = 0; i < n;) {
    sim_flush();   /* drop stale copies of the slots */
    while (i < n && s[i].done) i++;
  }
}

void sim_join(uint32_t start_cycle)
{
  uint32_t t = sim_thread_id() & (TinselNumThreads - 1);
  publish(&thread_slot[t]);
  if (t % TinselThreadsPerCore) return;

  wait_all(&thread_slot[t], TinselThreadsPerCore);
  publish(&core_slot[t / TinselThreadsPerCore]);
  if (t) return;

  wait_all(core_slot, TinselNumCores < TinselCoresPerDRAM ? TinselNumCores : TinselCoresPerDRAM);
  if (TinselNumCores > TinselCoresPerDRAM) {
    uint32_t took = sim_cycle() - start_cycle;
    while (sim_cycle() - start_cycle < 2 * took) {}
  }
}
