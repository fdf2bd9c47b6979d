/* tests/router/keys.c: routing keys through the board router. Thread 0 of
 * board (0,0) key-sends each key of rt_send (tables.h, generated from the
 * placer's encoder by gen_tables), and on a board thread 0 of DRAM 1's
 * first core writes a table into its own DRAM and sends its key. Every
 * thread then receives until the machine is idle (a keyed message counts
 * until its last copy is freed) and checks that it got exactly the
 * messages tables.h expects, with payload words 0-1 rewritten by the
 * records' local keys and the rest intact. A second idle round lets
 * failures report before thread 0 passes; thread 0 also checks its board
 * router's counters (CSRs ProgRouterSent, ProgRouterSentInter). -DSEND_BAD:
 * thread 0 sends a key whose beat is malformed instead, -DSEND_BAD_RR one
 * whose RR record points off the mesh (tsim must halt naming them). */
#include "mbox_test.h"
#include "tables.h"

enum { W0 = 0xc0c0c0c0u, W1 = 0xc1c1c1c1u, DRAM1_THREAD = TinselThreadsPerDRAM };

static void key_send(uint32_t key, uint32_t sender) {
  while (!tinselCanSend()) tinselWaitUntil(TINSEL_CAN_SEND);
  volatile uint32_t *slot = (volatile uint32_t *)tinselSendSlot();
  slot[0] = W0; slot[1] = W1; slot[2] = sender; slot[3] = key;
  for (uint32_t i = 0; i < 12; i++) slot[4 + i] = pattern(sender, 0, i);
  tinselSetLen(3);
  tinselKeySend((int)key, slot);
}

/* Which expectation message m meets (-1: none, or one already met). */
static int match(uint32_t id, volatile uint32_t *m, uint32_t *met) {
  for (uint32_t i = 0; i < RT_NEXPECT; i++) {
    const RtExpect *e = &rt_expect[i];
    if (e->thread != id || (uint32_t)e->sender != m[2] || (met[i / 32] >> (i % 32) & 1)) continue;
    if (m[0] != ((W0 & ~e->m0) | e->w0) || m[1] != ((W1 & ~e->m1) | e->w1)) continue;
    met[i / 32] |= 1u << (i % 32);
    return (int)i;
  }
  return -1;
}

int main(void) {
  uint32_t id = tinselId(), met[(RT_NEXPECT + 31) / 32] = {0}, got = 0, want = 0;
  int err = 0, r;
#if defined SEND_BAD
  if (id == 0) key_send(KEY_BAD, 0);
#elif defined SEND_BAD_RR
  if (id == 0) key_send(KEY_BAD_RR, 0);
#else
  if (id == 0)
    for (uint32_t k = 0; k < RT_NSEND; k++) key_send(rt_send[k], k);
#if RT_DRAM1_WORDS
  if (id == DRAM1_THREAD) {
    volatile uint32_t *t = (volatile uint32_t *)RT_DRAM1_ADDR;
    for (uint32_t i = 0; i < RT_DRAM1_WORDS; i++) t[i] = rt_dram1[i];
    tinselCacheFlush();  /* the router reads DRAM, not this thread's cache */
    key_send(KEY_DRAM1, RT_NSEND);
  }
#endif
#endif
  for (uint32_t i = 0; i < RT_NEXPECT; i++) want += rt_expect[i].thread == id;
  while ((r = tinselIdle(1)) == 0) {
    volatile uint32_t *m = (volatile uint32_t *)tinselRecv();
    if (match(id, m, met) < 0) err = err ? err : 2;
    for (uint32_t i = 0; i < 12; i++)
      if (m[4 + i] != pattern(m[2], 0, i)) err = err ? err : 3;
    got++;
    tinselFree(m);
  }
  if (!err && got != want) err = 4;
  /* Board (0,0)'s router counted what its records emitted (CSRs 0xc0e, 0xc0f). */
  if (!err && id == 0 && (tinselProgRouterSent() != RT_SENT00 || tinselProgRouterSentInterBoard() != RT_INTER00))
    err = 5;
  if (err) {
    sim_emit(id);
    return err;
  }
  while (tinselIdle(1) == 0) {}
  return 0;
}
