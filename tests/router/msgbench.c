/* tests/router/msgbench.c: message-bound firmware for the model's speed
 * (bench/sim.sh, not a test). -DNEIGHBOURS: every thread of the machine
 * sends ROUNDS one-flit messages to each of its four neighbours on a torus
 * of all threads (rows of 32 threads; neighbours across boards in a box).
 * Otherwise all-to-all: every STRIDE-th thread sends ROUNDS messages to
 * every other such thread. All threads end in tinselIdle (messages in
 * flight count) and check they got what was sent to them. */
#include "mbox_test.h"

#ifndef ROUNDS
#define ROUNDS 1
#endif
#ifndef STRIDE
#define STRIDE 16
#endif
enum {
  BOARDS = TinselMeshXLenWithinBox * TinselMeshYLenWithinBox,
  THREADS = BOARDS * TinselThreadsPerBoard,  /* dense index: board index * ThreadsPerBoard + local */
  ROW = 32, ROWS = THREADS / ROW
};

/* Dense index <-> thread id (board bits {Y, X} above the local id). */
static uint32_t to_id(uint32_t i) {
  uint32_t b = i / TinselThreadsPerBoard, x = b % TinselMeshXLenWithinBox, y = b / TinselMeshXLenWithinBox;
  return (y << TinselMeshXBits | x) << TinselLogThreadsPerBoard | (i % TinselThreadsPerBoard);
}
static uint32_t to_index(uint32_t id) {
  uint32_t board = id >> TinselLogThreadsPerBoard, x = board & ((1u << TinselMeshXBits) - 1);
  uint32_t y = board >> TinselMeshXBits;
  return (y * TinselMeshXLenWithinBox + x) * TinselThreadsPerBoard + (id & (TinselThreadsPerBoard - 1));
}

static void count(void *ctx, volatile Msg *m) { (void)m; ++*(uint32_t *)ctx; }

static void send_to(uint32_t dest, uint32_t *got) {
  while (!tinselCanSend()) {
    if (tinselCanRecv()) take_one(count, got);
    else tinselWaitUntil((TinselWakeupCond)(TINSEL_CAN_SEND | TINSEL_CAN_RECV));
  }
  volatile uint32_t *slot = (volatile uint32_t *)tinselSendSlot();
  slot[0] = KIND_DATA;
  tinselSetLen(0);
  tinselSend((int)dest, slot);
}

int main(void) {
  uint32_t me = to_index(tinselId()), got = 0, want;
#ifdef NEIGHBOURS
  uint32_t r = me / ROW, c = me % ROW;
  uint32_t nb[4] = { ((r + ROWS - 1) % ROWS) * ROW + c, ((r + 1) % ROWS) * ROW + c,
                     r * ROW + (c + ROW - 1) % ROW, r * ROW + (c + 1) % ROW };
  for (uint32_t k = 0; k < ROUNDS; k++)
    for (int d = 0; d < 4; d++) send_to(to_id(nb[d]), &got);
  want = 4 * ROUNDS;
#else
  want = 0;
  if (me % STRIDE == 0) {
    for (uint32_t k = 0; k < ROUNDS; k++)
      for (uint32_t j = STRIDE; j < THREADS; j += STRIDE) send_to(to_id((me + j) % THREADS), &got);
    want = ROUNDS * (THREADS / STRIDE - 1);
  }
#endif
  while (tinselIdle(1) == 0) take_one(count, &got);
  if (got != want) return 2;
  while (tinselIdle(1) == 0) {}
  return 0;
}
