/* tests/sim/t_threads.c: every thread of the configuration (run with
 * --all-threads) computes thread_work_int and thread_work_fp for its own id,
 * checks them against the host's results, then joins the others (join.c).
 * With -DSPAWN only thread 0 is started (no --all-threads): it starts the
 * other threads of its core through CSR NewThread, as Tinsel's boot loader does.
 * Failure codes: 2*t+1 (integer result of thread t wrong), 2*t+2 (FP).
 */
#include "test.h"
#include "thread_work.h"
#include "tinsel_config.h"
#include WORK_VECTORS   /* want_work[t] = { int, fp }, WORK_* constants */

_Static_assert(WORK_THREADS == TinselNumThreads, "vectors for another configuration");

int main(void)
{
  uint32_t start = sim_cycle();
  uint32_t t = sim_thread_id() & (TinselNumThreads - 1);
#ifdef SPAWN
  if (t == 0)
    for (uint32_t i = 1; i < TinselThreadsPerCore; i++)
      __asm__ volatile("csrrw zero, %0, %1" : : "i"(TinselCsrNewThread), "r"(i));
#endif
  uint32_t got_int = thread_work_int(t, WORK_INT_ITERS);
  uint32_t got_fp = thread_work_fp(t, WORK_FP_ITERS);
  if (got_int != want_work[t][0] || got_fp != want_work[t][1]) {
    sim_emit(t);
    sim_emit(got_int);
    sim_emit(got_fp);
    return (int)(2 * t + (got_int != want_work[t][0] ? 1 : 2));
  }
  sim_join(start);
  return 0;
}
