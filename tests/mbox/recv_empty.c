/* tests/mbox/recv_empty.c: Recv with no message waiting is an error tsim
 * reports (run.sh expects the halt and its message). */
#include "mbox_test.h"

int main(void) {
  if (tinselId() != 0) return 0;
  volatile void *m = tinselRecv();
  return m ? 2 : 3;   /* not reached: tsim halts */
}
