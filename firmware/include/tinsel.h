// tinsel.h: the Tinsel device API (names, signatures and semantics of
// Tinsel 0.8.3's include/tinsel.h, tinsel.md §2.3), written for this
// project. Every number comes from boards/ through tinsel_config.h.
// CSRs are accessed with csrrw only: real Tinsel implements no other CSR
// instruction (tinsel.md §1.1). As Tinsel's, it includes config.h, io.h
// (printf, puts without a newline, putchar, puthex) and tinsel-interface.h
// (the part shared with host code: addresses, heap bases, TinselWakeupCond).
#ifndef TINSEL_H
#define TINSEL_H

#ifndef __riscv
#error "tinsel.h is for Tinsel firmware (riscv64-unknown-elf-gcc -march=rv32imf)"
#endif

#include <stdint.h>
#include "config.h"
#include "io.h"
#include "tinsel-interface.h"

// The CSR numbers as strings, for inline asm ("csrrw %0, " CSR_HART_ID ", zero").
#define TINSEL_STR_(x) #x
#define TINSEL_STR(x) TINSEL_STR_(x)
#define CSR_INSTR_ADDR          TINSEL_STR(TinselCsrInstrAddr)
#define CSR_INSTR               TINSEL_STR(TinselCsrInstr)
#define CSR_FREE                TINSEL_STR(TinselCsrFree)
#define CSR_CAN_SEND            TINSEL_STR(TinselCsrCanSend)
#define CSR_HART_ID             TINSEL_STR(TinselCsrHartId)
#define CSR_CAN_RECV            TINSEL_STR(TinselCsrCanRecv)
#define CSR_SEND_LEN            TINSEL_STR(TinselCsrSendLen)
#define CSR_SEND_PTR            TINSEL_STR(TinselCsrSendPtr)
#define CSR_SEND_DEST           TINSEL_STR(TinselCsrSendDest)
#define CSR_RECV                TINSEL_STR(TinselCsrRecv)
#define CSR_WAIT_UNTIL          TINSEL_STR(TinselCsrWaitUntil)
#define CSR_FROM_UART           TINSEL_STR(TinselCsrFromUart)
#define CSR_TO_UART             TINSEL_STR(TinselCsrToUart)
#define CSR_NEW_THREAD          TINSEL_STR(TinselCsrNewThread)
#define CSR_KILL_THREAD         TINSEL_STR(TinselCsrKillThread)
#define CSR_EMIT                TINSEL_STR(TinselCsrEmit)
#define CSR_CYCLE               TINSEL_STR(TinselCsrCycle)
#define CSR_FLUSH               TINSEL_STR(TinselCsrFlush)
#define CSR_PERFCOUNT           TINSEL_STR(TinselCsrPerfCount)
#define CSR_MISSCOUNT           TINSEL_STR(TinselCsrMissCount)
#define CSR_HITCOUNT            TINSEL_STR(TinselCsrHitCount)
#define CSR_WBCOUNT             TINSEL_STR(TinselCsrWritebackCount)
#define CSR_CPUIDLECOUNT        TINSEL_STR(TinselCsrCPUIdleCount)
#define CSR_CPUIDLECOUNTU       TINSEL_STR(TinselCsrCPUIdleCountU)
#define CSR_CYCLEU              TINSEL_STR(TinselCsrCycleU)
#define CSR_PROGROUTERSENT      TINSEL_STR(TinselCsrProgRouterSent)
#define CSR_PROGROUTERSENTINTER TINSEL_STR(TinselCsrProgRouterSentInter)

// csrrw rd, CSR, zero: reads a CSR (and writes 0, as Tinsel's own API does).
#define TINSEL_CSR_READ(csr, out) \
  __asm__ volatile("csrrw %0, %1, zero" : "=r"(out) : "i"(csr) : "memory")
// csrrw zero, CSR, rs
#define TINSEL_CSR_WRITE(csr, val) \
  __asm__ volatile("csrrw zero, %0, %1" : : "i"(csr), "r"(val) : "memory")
// csrrw rd, CSR, rs
#define TINSEL_CSR_SWAP(csr, val, out) \
  __asm__ volatile("csrrw %0, %1, %2" : "=r"(out) : "i"(csr), "r"(val) : "memory")

// ------------------------------------------------------------ identity

// Global thread id: {board Y, board X, mailbox Y, mailbox X, core, thread}.
INLINE uint32_t tinselId(void) {
  uint32_t id; TINSEL_CSR_READ(TinselCsrHartId, id); return id;
}

INLINE uint32_t tinselCycleCount(void) {
  uint32_t n; TINSEL_CSR_READ(TinselCsrCycle, n); return n;
}

INLINE uint32_t tinselCycleCountU(void) {
  uint32_t n; TINSEL_CSR_READ(TinselCsrCycleU, n); return n;
}

// ------------------------------------------------- caches and imem

// Non-blocking; load from memory afterwards to wait for the writeback.
INLINE void tinselFlushLine(uint32_t lineNum, uint32_t way) {
  TINSEL_CSR_WRITE(TinselCsrFlush, (lineNum << TinselDCacheLogNumWays) | way);
}

INLINE void tinselCacheFlush(void) {
  // Every (line, way) pair of the thread's partition: (line << ways) | way.
  for (uint32_t i = 0; i < (1u << (TinselDCacheLogSetsPerThread + TinselDCacheLogNumWays)); i++)
    TINSEL_CSR_WRITE(TinselCsrFlush, i);
}

// addr is a byte address in instruction memory.
INLINE void tinselWriteInstr(uint32_t addr, uint32_t word) {
  TINSEL_CSR_WRITE(TinselCsrInstrAddr, addr >> 2);
  TINSEL_CSR_WRITE(TinselCsrInstr, word);
}

// Prints a word in simulation.
INLINE void tinselEmit(uint32_t x) { TINSEL_CSR_WRITE(TinselCsrEmit, x); }

// ------------------------------------------------------- debug link

// Returns non-zero when the byte was taken.
INLINE uint32_t tinselUartTryPut(uint8_t x) {
  uint32_t ok; TINSEL_CSR_SWAP(TinselCsrToUart, (uint32_t)x, ok); return ok;
}

// Bit 8 set when bits 7:0 hold a byte from the host.
INLINE uint32_t tinselUartTryGet(void) {
  uint32_t v; TINSEL_CSR_READ(TinselCsrFromUart, v); return v;
}

// ------------------------------------------------------------ threads

// The new thread starts at PC 0 (the boot loader's entry).
INLINE void tinselCreateThread(uint32_t id) { TINSEL_CSR_WRITE(TinselCsrNewThread, id); }

INLINE void tinselKillThread(void) { TINSEL_CSR_WRITE(TinselCsrKillThread, 0u); }

// ------------------------------------------------------------ mailbox

INLINE void tinselFree(volatile void *addr) {
  TINSEL_CSR_WRITE(TinselCsrFree, (uint32_t)(uintptr_t)addr);
}

// The thread's send slot: one message-sized slot per mailbox thread.
INLINE volatile void *tinselSendSlot(void) {
  uint32_t t = tinselId() & (TinselThreadsPerMailbox - 1);
  return (volatile void *)(uintptr_t)(TinselScratchpadBase + (t << TinselLogBytesPerMsg));
}

// The extra send slot, when the host asked for it (useExtraSendSlot).
INLINE volatile void *tinselSendSlotExtra(void) {
  uint32_t t = (tinselId() & (TinselThreadsPerMailbox - 1)) + TinselThreadsPerMailbox;
  return (volatile void *)(uintptr_t)(TinselScratchpadBase + (t << TinselLogBytesPerMsg));
}

INLINE int tinselCanSend(void) {
  uint32_t ok; TINSEL_CSR_READ(TinselCsrCanSend, ok); return (int)ok;
}

INLINE int tinselCanRecv(void) {
  uint32_t ok; TINSEL_CSR_READ(TinselCsrCanRecv, ok); return (int)ok;
}

// Messages are n+1 flits long; persistent until set again.
INLINE void tinselSetLen(int n) { TINSEL_CSR_WRITE(TinselCsrSendLen, (uint32_t)n); }

// The custom Send instruction: rs1 = x10 (mask high), rs2 = x11 (mask low).
#define TINSEL_SEND_WORD ((11u << 20) | (10u << 15) | (uint32_t)TinselSendOpcode)

// Send the message at addr to the threads of mailbox mboxDest in the mask.
// SendLen is not written (it is persistent).
INLINE void tinselMulticast(uint32_t mboxDest, uint32_t destMaskHigh,
                            uint32_t destMaskLow, volatile void *addr) {
  TINSEL_CSR_WRITE(TinselCsrSendPtr, (uint32_t)(uintptr_t)addr);
  TINSEL_CSR_WRITE(TinselCsrSendDest, mboxDest);
  register uint32_t hi __asm__("a0") = destMaskHigh;
  register uint32_t lo __asm__("a1") = destMaskLow;
  __asm__ volatile(".word %2" : : "r"(hi), "r"(lo), "i"(TINSEL_SEND_WORD) : "memory");
}

// Send to one thread (a global thread id, or tinselHostId()).
INLINE void tinselSend(int dest, volatile void *addr) {
  uint32_t t = (uint32_t)dest & (TinselThreadsPerMailbox - 1);
  uint32_t hi = t >= 32 ? 1u << (t - 32) : 0u;
  uint32_t lo = t < 32 ? 1u << t : 0u;
  tinselMulticast((uint32_t)dest >> TinselLogThreadsPerMailbox, hi, lo, addr);
}

INLINE void tinselKeySend(int key, volatile void *addr) {
  tinselMulticast(tinselUseRoutingKey(), 0, (uint32_t)key, addr);
}

// Pointer to the next received message (in the scratchpad alias);
// the slot stays the thread's until tinselFree.
INLINE volatile void *tinselRecv(void) {
  uint32_t p; TINSEL_CSR_READ(TinselCsrRecv, p); return (volatile void *)(uintptr_t)p;
}

INLINE void tinselWaitUntil(TinselWakeupCond cond) {
  TINSEL_CSR_WRITE(TinselCsrWaitUntil, (uint32_t)cond);
}

// Idle barrier. Returns 0 when a message is waiting, 1 when the system is
// idle, and more than 1 when it is idle and every caller voted true.
INLINE int tinselIdle(int vote) {
  uint32_t cond = TinselWakeCanRecv | TinselWakeIdleVoteFalse |
                  (vote ? (uint32_t)TinselWakeIdleVoteTrue : 0u);
  uint32_t r; TINSEL_CSR_SWAP(TinselCsrWaitUntil, cond, r);
  return (int)(r >> 2);
}

// ---------------------------------------------------------- memory map

INLINE void *tinselHeapBase(void) {
  return (void *)(uintptr_t)tinselHeapBaseGeneric(tinselId());
}

INLINE void *tinselHeapBaseSRAM(void) {
  return (void *)(uintptr_t)tinselHeapBaseSRAMGeneric(tinselId());
}

// ------------------------------------------------------------ addresses

#define TINSEL_BOARD_SHIFT TinselLogThreadsPerBoard   // board X in a thread id

// The bridge of box column x (west side when x is 0, else east), board row y.
INLINE uint32_t tinselBridgeId(uint32_t x, uint32_t y) {
  uint32_t me = tinselId();
  uint32_t boardX = (me >> TINSEL_BOARD_SHIFT) & ((1u << TinselMeshXBits) - 1);
  uint32_t side = x == 0 ? TinselHostId : (TinselHostId | (TinselHostId >> 1));
  return side | (y << (TINSEL_BOARD_SHIFT + TinselMeshXBits)) | (boardX << TINSEL_BOARD_SHIFT);
}

// The bridge of this thread's box: west for the first box column, else east.
INLINE uint32_t tinselMyBridgeId(void) {
  uint32_t me = tinselId();
  uint32_t boardX = (me >> TINSEL_BOARD_SHIFT) & ((1u << TinselMeshXBits) - 1);
  uint32_t side = boardX < TinselMeshXLenWithinBox ? TinselHostId
                                                   : (TinselHostId | (TinselHostId >> 1));
  return me | side;
}

// ------------------------------------------------- performance counters

INLINE void tinselPerfCountReset(void) { TINSEL_CSR_WRITE(TinselCsrPerfCount, 0u); }
INLINE void tinselPerfCountStart(void) { TINSEL_CSR_WRITE(TinselCsrPerfCount, 1u); }
INLINE void tinselPerfCountStop(void)  { TINSEL_CSR_WRITE(TinselCsrPerfCount, 2u); }

#define TINSEL_PERF_READER(name, csr) \
  INLINE uint32_t name(void) { uint32_t n; TINSEL_CSR_READ(csr, n); return n; }
TINSEL_PERF_READER(tinselMissCount, TinselCsrMissCount)
TINSEL_PERF_READER(tinselHitCount, TinselCsrHitCount)
TINSEL_PERF_READER(tinselWritebackCount, TinselCsrWritebackCount)
TINSEL_PERF_READER(tinselCPUIdleCount, TinselCsrCPUIdleCount)
TINSEL_PERF_READER(tinselCPUIdleCountU, TinselCsrCPUIdleCountU)
TINSEL_PERF_READER(tinselProgRouterSent, TinselCsrProgRouterSent)
TINSEL_PERF_READER(tinselProgRouterSentInterBoard, TinselCsrProgRouterSentInter)
#undef TINSEL_PERF_READER

#endif
