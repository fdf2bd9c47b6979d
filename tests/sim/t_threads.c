/* tests/sim/t_threads.c: every thread of the configuration (run with
 * --all-threads) computes thread_work_int and thread_work_fp for its own id
 * and checks them against the host's results; then the threads report in.
 *
 * Threads share memory only through their DRAM slice's globals, and the data
 * caches are not coherent, so a thread publishes its slot by writing it and
 * flushing its cache partition, and a waiter flushes before each look. Slots
 * are one cache line each so that write-backs never clobber a neighbour.
 * Thread 0 of each core waits for its core's threads, then marks the core
 * done; thread 0 waits for the cores of its slice. Without a mailbox, slices
 * other than thread 0's are invisible to it: their threads still report a
 * failure through tohost themselves, and thread 0 allows them twice its own
 * run time before it reports the pass.
 * Failure codes: 2*t+1 (integer result of thread t wrong), 2*t+2 (FP).
 */
#include "test.h"
#include "thread_work.h"
#include "tinsel_config.h"
#include WORK_VECTORS   /* want_work[t] = { int, fp }, WORK_* constants */

_Static_assert(WORK_THREADS == TinselNumThreads, "vectors for another configuration");

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

int main(void)
{
  uint32_t start = sim_cycle();
  uint32_t t = sim_thread_id() & (TinselNumThreads - 1);
  uint32_t got_int = thread_work_int(t, WORK_INT_ITERS);
  uint32_t got_fp = thread_work_fp(t, WORK_FP_ITERS);
  if (got_int != want_work[t][0] || got_fp != want_work[t][1]) {
    sim_emit(t);
    sim_emit(got_int);
    sim_emit(got_fp);
    return (int)(2 * t + (got_int != want_work[t][0] ? 1 : 2));
  }
  publish(&thread_slot[t]);
  if (t % TinselThreadsPerCore) return 0;

  uint32_t core = t / TinselThreadsPerCore;
  wait_all(&thread_slot[t], TinselThreadsPerCore);
  publish(&core_slot[core]);
  if (t) return 0;

  uint32_t slice_cores = TinselNumCores < TinselCoresPerDRAM ? TinselNumCores : TinselCoresPerDRAM;
  wait_all(core_slot, slice_cores);
  if (TinselNumCores > TinselCoresPerDRAM) {
    uint32_t took = sim_cycle() - start;
    while (sim_cycle() - start < 2 * took) {}
  }
  return 0;
}
