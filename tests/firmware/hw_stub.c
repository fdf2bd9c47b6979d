// hw_stub.c: see hw_stub.h.
#include "hw_stub.h"
#include "ss_hw.h"
#include <string.h>

stub_state stub;

static uint32_t queue[STUB_MAX_RECVS][TinselBytesPerMsg / 4];
static uint32_t q_head, q_tail;          // messages pushed / taken
static int outstanding;                  // received, not yet freed
static uint32_t slot[TinselBytesPerMsg / 4];
static uint32_t cycles;

void stub_reset(uint32_t thread_id) {
  memset(&stub, 0, sizeof stub);
  stub.thread_id = thread_id;
  stub.len = ~0u;
  q_head = q_tail = 0;
  outstanding = 0;
  memset(slot, 0, sizeof slot);
}

void stub_push(const void *msg, uint32_t bytes) {
  if (q_head >= STUB_MAX_RECVS) return;
  memset(queue[q_head], 0, sizeof queue[q_head]);
  memcpy(queue[q_head], msg, bytes);
  q_head++;
}

uint32_t stub_queued(void) { return q_head - q_tail; }

uint32_t ss_hw_id(void) { return stub.thread_id; }
uint32_t ss_hw_cycles(void) { return cycles += 10; }
int ss_hw_can_send(void) { return stub.busy == 0; }
int ss_hw_can_recv(void) { return q_tail < q_head; }
void *ss_hw_send_slot(void) {
  if (stub.busy) stub.slot_written_while_busy = 1;   // approximate: asked for the slot while busy
  return slot;
}
void ss_hw_set_len(uint32_t n) { stub.len = n; }

void ss_hw_multicast(uint32_t mbox, uint32_t hi, uint32_t lo, void *msg) {
  if (stub.busy) stub.sent_while_busy = 1;
  if (stub.nsends < STUB_MAX_SENDS) {
    stub_send *s = &stub.sends[stub.nsends];
    s->mbox = mbox; s->hi = hi; s->lo = lo; s->len = stub.len;
    memcpy(s->msg, msg, sizeof s->msg);
  }
  stub.nsends++;
  stub.busy = stub.busy_after_send;
}

void *ss_hw_recv(void) {
  if (q_tail >= q_head) return NULL;
  stub.recvs++;
  outstanding++;
  return queue[q_tail++];
}

void ss_hw_free(void *msg) {
  // Only the most recently received message may be outstanding here.
  if (outstanding != 1 || msg != queue[q_tail - 1]) stub.bad_free = 1;
  outstanding--;
  stub.frees++;
}

void ss_hw_wait_send_or_recv(void) {
  stub.waits++;
  if (stub.busy) stub.busy--;
  for (uint32_t k = 0; k < stub.flood_per_wait && stub.flood_left; k++, stub.flood_left--)
    stub_push(stub.flood_msg, sizeof stub.flood_msg);
}

int ss_hw_idle(int vote) {
  stub.idles++;
  stub.last_vote = vote;
  stub.busy = 0;
  if (q_tail < q_head) return 0;
  return vote ? 2 : 1;
}

uint32_t ss_hw_cycles_hi(void) { return 0; }

// Host-driven images wait for a message instead of voting: the tests count
// the waits (and a wait with the port busy frees it, as time passes).
void ss_hw_wait_recv(void) {
  stub.recv_waits++;
  stub.busy = 0;
}
