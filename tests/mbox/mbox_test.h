/* tests/mbox/mbox_test.h: what the mailbox tests share: the message layout,
 * a send that keeps receiving while the send slot is busy (Tinsel's rule:
 * a thread that only waits to send can deadlock the network), and a receive
 * that sleeps until a message arrives. Each test is a main() run by every
 * thread (tsim --all-threads) under tests/sim/crt0.S: 0 from thread 0 is a
 * pass, n != 0 from any thread is failed check n. State lives on each
 * thread's stack: the data caches are not coherent (tests/sim/join.c). */
#ifndef TESTS_MBOX_TEST_H
#define TESTS_MBOX_TEST_H
#include <stdint.h>
#include "tinsel.h"

void sim_emit(uint32_t word);   /* tests/sim/crt0.S */
uint32_t sim_cycle(void);

enum { KIND_DATA = 1, KIND_DONE = 2, KIND_COUNT = 3 };

/* One message: up to 4 flits; the tests fill `w` to check every flit. */
typedef struct { uint32_t kind, src, seq, val, w[12]; } Msg;

/* The payload word i of message seq from src: every flit carries checkable data. */
static inline uint32_t pattern(uint32_t src, uint32_t seq, uint32_t i) {
  return (src << 16) ^ (seq << 4) ^ i ^ 0x5a5a0000u;
}

/* Called for each received message (the slot is freed afterwards). */
typedef void on_recv_fn(void *ctx, volatile Msg *m);

/* Take one waiting message: handle it, free its slot. */
static inline void take_one(on_recv_fn *fn, void *ctx) {
  volatile Msg *m = (volatile Msg *)tinselRecv();
  fn(ctx, m);
  tinselFree(m);
}

/* Send `flits` flits of *m to thread `dest`; while the send slot is busy,
 * handle arriving messages. */
static inline void send_msg(uint32_t dest, const Msg *m, int flits, on_recv_fn *fn, void *ctx) {
  while (!tinselCanSend()) {
    if (tinselCanRecv()) take_one(fn, ctx);
    else tinselWaitUntil((TinselWakeupCond)(TINSEL_CAN_SEND | TINSEL_CAN_RECV));
  }
  volatile uint32_t *slot = (volatile uint32_t *)tinselSendSlot();
  const uint32_t *src = (const uint32_t *)m;
  for (int i = 0; i < 4 * flits; i++) slot[i] = src[i];
  tinselSetLen(flits - 1);
  tinselSend((int)dest, slot);
}

/* Sleep until a message arrives, then handle it. */
static inline void recv_one(on_recv_fn *fn, void *ctx) {
  tinselWaitUntil(TINSEL_CAN_RECV);
  take_one(fn, ctx);
}

/* Write a 4-flit message straight into the thread's send slot (faster than
 * building it on the stack: one thread runs at 1/8 of a core). */
static inline volatile uint32_t *fill_slot(uint32_t kind, uint32_t src, uint32_t seq, uint32_t val) {
  volatile uint32_t *slot = (volatile uint32_t *)tinselSendSlot();
  slot[0] = kind; slot[1] = src; slot[2] = seq; slot[3] = val;
  for (uint32_t i = 0; i < 12; i++) slot[4 + i] = pattern(src, seq, i);
  tinselSetLen(3);
  return slot;
}

/* The end of a test: a thread other than 0 tells thread 0 it has passed;
 * thread 0 waits until `expected` have (on_recv counts KIND_DONE messages
 * in *done). */
static inline void report_done(uint32_t *done, uint32_t expected, on_recv_fn *fn, void *ctx) {
  if (tinselId() != 0) {
    Msg d = { KIND_DONE, tinselId(), 0, 0, { 0 } };
    send_msg(0, &d, 1, fn, ctx);
    return;
  }
  while (*done < expected) recv_one(fn, ctx);
}

/* Spin until the cycle counter has advanced by n (wraps safely). */
static inline void spin(uint32_t n) {
  uint32_t t0 = sim_cycle();
  while (sim_cycle() - t0 < n) {}
}

#endif
