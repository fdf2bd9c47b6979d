// api.c: every function of the Tinsel device API (tinsel.md §2.3), called
// with the reference's argument types, so a missing or renamed function or
// a changed signature fails the build. Built and checked by run.sh, not run.
#include "tinsel.h"

volatile uint32_t sink;

int main(void) {
  uint32_t bx, by, tx, ty, c, t;
  volatile void *slot = tinselSendSlot();
  sink = tinselId() + tinselCycleCount() + tinselCycleCountU();
  tinselFlushLine(0, 0);
  tinselCacheFlush();
  tinselWriteInstr(0x240, 0x13);
  tinselEmit(1);
  sink = tinselUartTryPut('x') + tinselUartTryGet();
  tinselCreateThread(1);
  volatile void *extra = tinselSendSlotExtra();
  sink = (uint32_t)tinselCanSend() + (uint32_t)tinselCanRecv() + (uint32_t)(uintptr_t)extra;
  tinselSetLen(0);
  tinselMulticast(0, 0, 1, slot);
  tinselSend(1, slot);
  tinselKeySend(7, slot);
  volatile void *msg = tinselRecv();
  tinselFree(msg);
  TinselWakeupCond cond = TINSEL_CAN_SEND;
  tinselWaitUntil(cond);
  tinselWaitUntil(TINSEL_CAN_RECV);
  sink = (uint32_t)tinselIdle(1);
  sink = (uint32_t)(uintptr_t)tinselHeapBase() + (uint32_t)(uintptr_t)tinselHeapBaseSRAM() +
         tinselHeapBaseGeneric(0) + tinselHeapBaseSRAMGeneric(0);
  sink = tinselHostId() + tinselBridgeId(0, 0) + tinselMyBridgeId() + tinselUseRoutingKey();
  sink = tinselToAddr(0, 0, 0, 0, 0, 0) + tinselAccId(0, 0, 0, 0);
  tinselFromAddr(sink, &bx, &by, &tx, &ty, &c, &t);
  tinselPerfCountReset();
  tinselPerfCountStart();
  tinselPerfCountStop();
  sink = tinselMissCount() + tinselHitCount() + tinselWritebackCount() + tinselCPUIdleCount() +
         tinselCPUIdleCountU() + tinselProgRouterSent() + tinselProgRouterSentInterBoard();
  tinselKillThread();
  return 0;
}
