/* tests/mbox/bad_free.c: freeing a send slot is an error tsim reports
 * (run.sh expects the halt and its message). */
#include "mbox_test.h"

int main(void) {
  if (tinselId() != 0) return 0;
  tinselFree(tinselSendSlot());
  return 2;   /* not reached: tsim halts */
}
