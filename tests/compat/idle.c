// tests/compat/idle.c: a Tinsel-style app (no tohost, entry `j main`)
// whose threads end waiting for messages that never come: run with
// `tsim --elf --all-threads` (tests/compat/run.sh), every even thread
// sends its odd neighbour one message; the odd thread prints what came;
// then every thread waits in WaitUntil(CAN_RECV) for good. tsim ends the
// run as idle: every thread asleep, no message in flight.
#include "tinsel.h"

int main(void) {
  uint32_t me = tinselId();
  tinselSetLen(0);
  if ((me & 1) == 0) {
    volatile uint32_t *m = (volatile uint32_t *)tinselSendSlot();
    tinselWaitUntil(TINSEL_CAN_SEND);
    m[0] = me;
    tinselSend((int)(me + 1), m);
  } else {
    tinselWaitUntil(TINSEL_CAN_RECV);
    volatile uint32_t *p = (volatile uint32_t *)tinselRecv();
    printf("idle: 0x%x heard from 0x%x\n", (unsigned)me, (unsigned)p[0]);
    tinselFree(p);
  }
  for (;;) tinselWaitUntil(TINSEL_CAN_RECV);
}
