// tinsel-interface.h: the part of the Tinsel API shared by device and host
// code, as in Tinsel 0.8.3 (tinsel.md §2.3, §11): POLite's host side
// includes it to compute thread addresses, heap bases and routing-key
// destinations with the device's own arithmetic. Pure C (and C++), no
// inline asm; every number comes from boards/ through config.h.
//
// On the host the device-only functions (tinsel.h) are declared but never
// defined, as Tinsel's are: templates that mention them (POLite's PDevice.h)
// then compile on the host, and a host program that calls one fails to link.
#ifndef TINSEL_INTERFACE_H
#define TINSEL_INTERFACE_H

#include <stdint.h>
#include "config.h"
#include "io.h"

#define INLINE static inline __attribute__((always_inline))

// A thread sleeps in tinselWaitUntil until one of these, or-ed, holds.
typedef enum {
  TINSEL_CAN_SEND = TinselWakeCanSend,
  TINSEL_CAN_RECV = TinselWakeCanRecv
} TinselWakeupCond;

#ifdef __cplusplus
// C++ does not or enums into an enum; POLite writes TINSEL_CAN_SEND|TINSEL_CAN_RECV.
INLINE TinselWakeupCond operator|(TinselWakeupCond a, TinselWakeupCond b) {
  return (TinselWakeupCond)((uint32_t)a | (uint32_t)b);
}
#endif

// The host (bridge on the west side), in thread-address units.
INLINE uint32_t tinselHostId(void) { return TinselHostId; }

// Base of thread id's DRAM partition (interleaved alias); partition 0 is
// the highest, and the stack grows down from the partition's top.
INLINE uint32_t tinselHeapBaseGeneric(uint32_t id) {
  uint32_t part = id & (TinselThreadsPerDRAM - 1);
  return TinselDRAMInterleavedBase + (TinselThreadsPerDRAM - 1 - part) * TinselBytesPerDRAMPartition;
}

INLINE uint32_t tinselHeapBaseSRAMGeneric(uint32_t id) {
  uint32_t part = id & (TinselThreadsPerDRAM - 1);
  return TinselSRAMBase + (part << TinselLogBytesPerSRAMPartition);
}

INLINE uint32_t tinselToAddr(uint32_t boardX, uint32_t boardY, uint32_t tileX,
                             uint32_t tileY, uint32_t coreId, uint32_t threadId) {
  uint32_t a = boardY;
  a = (a << TinselMeshXBits) | boardX;
  a = (a << TinselMailboxMeshYBits) | tileY;
  a = (a << TinselMailboxMeshXBits) | tileX;
  a = (a << TinselLogCoresPerMailbox) | coreId;
  return (a << TinselLogThreadsPerCore) | threadId;
}

INLINE void tinselFromAddr(uint32_t addr, uint32_t *boardX, uint32_t *boardY,
                           uint32_t *tileX, uint32_t *tileY, uint32_t *coreId,
                           uint32_t *threadId) {
  *threadId = addr & ((1u << TinselLogThreadsPerCore) - 1); addr >>= TinselLogThreadsPerCore;
  *coreId = addr & ((1u << TinselLogCoresPerMailbox) - 1);  addr >>= TinselLogCoresPerMailbox;
  *tileX = addr & ((1u << TinselMailboxMeshXBits) - 1);     addr >>= TinselMailboxMeshXBits;
  *tileY = addr & ((1u << TinselMailboxMeshYBits) - 1);     addr >>= TinselMailboxMeshYBits;
  *boardX = addr & ((1u << TinselMeshXBits) - 1);           addr >>= TinselMeshXBits;
  *boardY = addr & ((1u << TinselMeshYBits) - 1);
}

// The custom accelerator of a tile: a thread address (thread 0 of the
// tile's first core) with the accelerator bit set, as Tinsel's.
INLINE uint32_t tinselAccId(uint32_t boardX, uint32_t boardY, uint32_t tileX, uint32_t tileY) {
  return TinselAcceleratorBit | tinselToAddr(boardX, boardY, tileX, tileY, 0, 0);
}

// Mailbox address that makes the router look up a routing key.
INLINE uint32_t tinselUseRoutingKey(void) { return TinselMailboxRoutingKey; }

#ifndef __riscv
// The device-only API (tinsel.h), declared for host code; see the top.
uint32_t tinselId(void);
uint32_t tinselCycleCount(void);
uint32_t tinselCycleCountU(void);
void tinselCacheFlush(void);
void tinselFlushLine(uint32_t lineNum, uint32_t way);
void tinselWriteInstr(uint32_t addr, uint32_t word);
void tinselEmit(uint32_t x);
uint32_t tinselUartTryPut(uint8_t x);
uint32_t tinselUartTryGet(void);
void tinselCreateThread(uint32_t id);
void tinselKillThread(void);
void tinselFree(volatile void *addr);
int tinselCanSend(void);
int tinselCanRecv(void);
volatile void *tinselSendSlot(void);
volatile void *tinselSendSlotExtra(void);
void tinselSetLen(int n);
void tinselMulticast(uint32_t mboxDest, uint32_t destMaskHigh, uint32_t destMaskLow, volatile void *addr);
void tinselSend(int dest, volatile void *addr);
void tinselKeySend(int key, volatile void *addr);
volatile void *tinselRecv(void);
void tinselWaitUntil(TinselWakeupCond cond);
int tinselIdle(int vote);
void *tinselHeapBase(void);
void *tinselHeapBaseSRAM(void);
uint32_t tinselBridgeId(uint32_t x, uint32_t y);
uint32_t tinselMyBridgeId(void);
void tinselPerfCountReset(void);
void tinselPerfCountStart(void);
void tinselPerfCountStop(void);
uint32_t tinselMissCount(void);
uint32_t tinselHitCount(void);
uint32_t tinselWritebackCount(void);
uint32_t tinselCPUIdleCount(void);
uint32_t tinselCPUIdleCountU(void);
uint32_t tinselProgRouterSent(void);
uint32_t tinselProgRouterSentInterBoard(void);
#endif

#endif
