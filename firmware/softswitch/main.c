// main.c: a thread's whole program under the softswitch. The host wrote
// the thread's image at tinselHeapBase(); the working state lives on the
// stack, because DRAM globals are shared by every thread of a DRAM.
// Build with -DSS_PRINT_STATS to print the statistics (SS_FLAG_STATS_UART)
// and image errors on the debug link; it costs the printf code (~1.5 KB).
#include <stdio.h>
#include "softswitch.h"
#include "tinsel.h"

#ifdef SS_PRINT_STATS
static void print_stats(const ss_stats *s) {
  printf("ss %x: sent %u local %u remote, recv %u local %u remote, "
         "handlers %u, idle %u cycles %u barriers, errors %u\n",
         (unsigned)tinselId(), (unsigned)s->sent_local, (unsigned)s->sent_remote,
         (unsigned)s->recv_local, (unsigned)s->recv_remote, (unsigned)s->handler_calls,
         (unsigned)s->idle_cycles, (unsigned)s->idle_barriers, (unsigned)s->errors);
}
#endif

int main(void) {
  ss_thread t;
  ss_thread_image *img = tinselHeapBase();
  int r = ss_run(&t, img);
#ifdef SS_PRINT_STATS
  if (r) printf("ss %x: bad thread image (magic %x)\n", (unsigned)tinselId(), (unsigned)img->magic);
  if (img->flags & SS_FLAG_STATS_UART) print_stats(&img->stats);
#endif
  tinselCacheFlush();                 // make the statistics visible to the host
  return r;
}
