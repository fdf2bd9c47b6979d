/* tests/mbox/deadlock.c: threads 0 and 1 each wait for a message from the
 * other before sending their own, so neither ever sends; every other thread
 * stops at once. tsim's watchdog must report the deadlock (exit 123) naming
 * the two threads in WaitUntil; it is not idle (nobody calls tinselIdle). */
#include "mbox_test.h"

static void on_recv(void *ctx, volatile Msg *m) {
  (void)m;
  ++*(uint32_t *)ctx;
}

int main(void) {
  uint32_t id = tinselId(), got = 0;
  if (id > 1) return 0;
  recv_one(on_recv, &got);                 /* never returns */
  Msg m = { KIND_DATA, id, 0, 0, { 0 } };
  send_msg(1 - id, &m, 1, on_recv, &got);
  return 0;
}
