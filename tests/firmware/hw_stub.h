// hw_stub.h: a host model of one thread's mailbox for the softswitch unit
// tests (the ss_hw_* primitives of firmware/softswitch/ss_hw.h): a receive
// queue the test fills, a log of network sends, a send port that can be
// held busy, and an idle barrier whose answer follows the votes.
#ifndef HW_STUB_H
#define HW_STUB_H
#include <stdint.h>
#include "softswitch.h"

#define STUB_MAX_SENDS 4096
#define STUB_MAX_RECVS 4096

typedef struct {
  uint32_t mbox, hi, lo, len;
  uint32_t msg[TinselBytesPerMsg / 4];
} stub_send;

typedef struct {
  uint32_t thread_id;
  // Send port: can_send is false while busy > 0; each wait spends one.
  uint32_t busy;
  uint32_t busy_after_send;  // busy cycles after each multicast
  // Flood: each wait delivers this many extra messages (copies of flood_msg).
  uint32_t flood_per_wait, flood_left;
  uint32_t flood_msg[TinselBytesPerMsg / 4];
  // Log.
  stub_send sends[STUB_MAX_SENDS];
  uint32_t nsends;
  uint32_t len;              // SendLen
  uint32_t recvs, frees, waits, idles, recv_waits;
  int sent_while_busy;       // a multicast issued while can_send was false
  int slot_written_while_busy;
  int bad_free;
  // Idle barrier: returns 0 if a message waits; else 2 if the vote is
  // true (all threads are this one), else 1.
  int last_vote;
} stub_state;

extern stub_state stub;

void stub_reset(uint32_t thread_id);
// Queue a message for the thread (copied).
void stub_push(const void *msg, uint32_t bytes);
uint32_t stub_queued(void);
#endif
