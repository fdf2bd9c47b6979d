// tests/compat/slots.c: what the DebugLink's QueryIn config changes for an
// app (tests/compat/run.sh). Core 0's threads 1-15 each send thread 0 one
// message from their extra send slot (tinselSendSlotExtra: slot 64 + t);
// thread 0 receives the 15 and prints which receive slots they came in:
// with config bit 4 (the extra send slot reserved) the pool starts at slot
// 128, else at 64. Built with -DEAST, thread 0 then sends a message to
// board (1, 0), beyond the east side of a one-board box: a link config
// bit 2 disables (the message waits in the board router) and that
// otherwise leaves the modelled boards.
#include "tinsel.h"

int main(void) {
  uint32_t me = tinselId(), t = me & (TinselThreadsPerCore - 1);
  uint32_t zero = me & ~(uint32_t)(TinselThreadsPerCore - 1);  // thread 0 of this core
  if ((me >> TinselLogThreadsPerCore) & ((1u << TinselLogCoresPerBoard) - 1)) return 0;  // core 0 only
  tinselSetLen(0);
  if (t != 0) {
    volatile uint32_t *m = (volatile uint32_t *)tinselSendSlotExtra();
    tinselWaitUntil(TINSEL_CAN_SEND);
    m[0] = me;
    tinselSend((int)zero, m);
    return 0;
  }
  uint32_t lowest = 0xffffffffu, in_extra = 0, sum = 0;
  for (int i = 1; i < TinselThreadsPerCore; i++) {
    tinselWaitUntil(TINSEL_CAN_RECV);
    volatile uint32_t *p = (volatile uint32_t *)tinselRecv();
    uint32_t slot = ((uint32_t)(uintptr_t)p >> TinselLogBytesPerMsg) & (TinselMsgsPerMailbox - 1);
    if (slot < lowest) lowest = slot;
    if (slot >= TinselThreadsPerMailbox && slot < 2 * TinselThreadsPerMailbox) in_extra++;
    sum += p[0] & (TinselThreadsPerCore - 1);
    tinselFree(p);
  }
  printf("slots: %d received (senders sum %u), lowest slot %u, %u in slots %u..%u\n", TinselThreadsPerCore - 1,
         (unsigned)sum, (unsigned)lowest, (unsigned)in_extra, (unsigned)TinselThreadsPerMailbox,
         (unsigned)(2 * TinselThreadsPerMailbox - 1));
#ifdef EAST
  volatile uint32_t *m = (volatile uint32_t *)tinselSendSlot();
  tinselWaitUntil(TINSEL_CAN_SEND);
  m[0] = me;
  tinselSend((int)tinselToAddr(1, 0, 0, 0, 0, 0), m);
  printf("slots: sent east\n");
#endif
  return 0;
}
