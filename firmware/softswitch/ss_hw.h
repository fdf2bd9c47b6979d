// ss_hw.h: the mailbox primitives the softswitch uses. On Tinsel they are
// tinsel.h's; on the host (unit tests) they are declared here and
// provided by a stub (tests/firmware/hw_stub.c), so the scheduling,
// dispatch and delivery logic is the same code in both.
#ifndef SS_HW_H
#define SS_HW_H

#include <stdint.h>

#ifdef __riscv
#include "tinsel.h"
static inline uint32_t ss_hw_id(void) { return tinselId(); }
static inline uint32_t ss_hw_cycles(void) { return tinselCycleCount(); }
static inline uint32_t ss_hw_cycles_hi(void) { return tinselCycleCountU(); }
static inline int ss_hw_can_send(void) { return tinselCanSend(); }
static inline int ss_hw_can_recv(void) { return tinselCanRecv(); }
static inline void *ss_hw_send_slot(void) { return (void *)tinselSendSlot(); }
static inline void ss_hw_set_len(uint32_t flits_minus_1) { tinselSetLen((int)flits_minus_1); }
static inline void ss_hw_multicast(uint32_t mbox, uint32_t hi, uint32_t lo, void *msg) {
  tinselMulticast(mbox, hi, lo, msg);
}
static inline void *ss_hw_recv(void) { return (void *)tinselRecv(); }
static inline void ss_hw_free(void *msg) { tinselFree(msg); }
static inline void ss_hw_wait_send_or_recv(void) {
  tinselWaitUntil((TinselWakeupCond)(TINSEL_CAN_SEND | TINSEL_CAN_RECV));
}
static inline int ss_hw_idle(int vote) { return tinselIdle(vote); }
static inline void ss_hw_wait_recv(void) { tinselWaitUntil(TINSEL_CAN_RECV); }
// The thread's extra send slot (usable only when the host reserved it).
static inline void *ss_hw_extra_slot(void) { return (void *)tinselSendSlotExtra(); }
#else
uint32_t ss_hw_id(void);
uint32_t ss_hw_cycles(void);
uint32_t ss_hw_cycles_hi(void);
int ss_hw_can_send(void);
int ss_hw_can_recv(void);
void *ss_hw_send_slot(void);
void ss_hw_set_len(uint32_t flits_minus_1);
void ss_hw_multicast(uint32_t mbox, uint32_t hi, uint32_t lo, void *msg);
void *ss_hw_recv(void);
void ss_hw_free(void *msg);
void ss_hw_wait_send_or_recv(void);
int ss_hw_idle(int vote);
void ss_hw_wait_recv(void);
// No scratchpad on the host: the hot state stays in ss_thread.
static inline void *ss_hw_extra_slot(void) { return 0; }
#endif

#endif
