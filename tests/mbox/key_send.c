/* tests/mbox/key_send.c: a routing-key send needs the programmable router,
 * which the model lacks yet: tsim must stop with a clear message, not drop
 * the message (run.sh expects the halt). */
#include "mbox_test.h"

int main(void) {
  if (tinselId() != 0) return 0;
  volatile uint32_t *slot = fill_slot(KIND_DATA, 0, 0, 0);
  tinselKeySend(0x1234, slot);
  tinselWaitUntil(TINSEL_CAN_SEND);
  return 2;   /* not reached: tsim halts */
}
