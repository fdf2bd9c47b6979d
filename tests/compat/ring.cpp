// tests/compat/ring.cpp: a device program written the way POLite's are
// (tinsel.md §6, §11): C++ without the standard library, a device class,
// tinselWaitUntil(TINSEL_CAN_SEND|TINSEL_CAN_RECV) through tinsel.h's
// operator|, output through io.h, entry `j main` (tinsel_entry.S), main
// returns. Built with g++ and Tinsel's own flags (-mabi=ilp32;
// tests/compat/rules.mk) and booted by compat_host (tests/compat/run.sh).
//
// The 16 threads of each core pass a token round a ring, LAPS times; each
// adds its position + 1 and checks the token it gets (lap, running sum,
// sender). A thread whose every token checked prints the line compat_host
// expects, "hello from thread 0x<8 hex digits>: ...", written with io.h's
// puts (no newline: C's would break the line) and puthex; one that saw a
// wrong token prints a "ring FAILED" line, which compat_host rejects.
#include <tinsel.h>

enum { LAPS = 4, RING = TinselThreadsPerCore };

// One flit: what a token carries.
struct Token {
  uint32_t lap, sum, from, unused;
};

// The running sum a token carries into position pos on lap lap: every
// earlier lap added 1 + 2 + ... + RING, this one 1 + ... + pos so far.
static uint32_t expected_sum(uint32_t lap, uint32_t pos) {
  return (lap - 1) * (RING * (RING + 1) / 2) + ((pos * (pos + 1)) >> 1);
}

class RingDevice {
 public:
  explicit RingDevice(uint32_t id)
      : me(id), pos(id & (RING - 1)), next(ring_addr(id, pos + 1)), prev(ring_addr(id, pos + RING - 1)),
        received(0), pending(false), bad(0) {}

  // Thread 0 of the core starts each lap; every other thread forwards
  // each token it gets. Sleeps until it can send or receive.
  void run() {
    tinselSetLen(0);
    if (pos == 0) queue(1, 1);
    while (received < LAPS || pending) {
      tinselWaitUntil(pending ? TINSEL_CAN_SEND | TINSEL_CAN_RECV : TINSEL_CAN_RECV);
      if (pending && tinselCanSend()) send();
      if (tinselCanRecv()) recv();
    }
  }

  void report() const {
    if (bad) {
      printf("ring FAILED at thread 0x%x: %u bad tokens\n", (unsigned)me, (unsigned)bad);
      return;
    }
    puts("hello from thread 0x");
    puthex(me);
    printf(": ring of %d threads, %d laps, every token checked\n", RING, LAPS);
  }

 private:
  // The thread at position p (mod RING) of id's core.
  static uint32_t ring_addr(uint32_t id, uint32_t p) { return (id & ~(uint32_t)(RING - 1)) | (p & (RING - 1)); }

  void queue(uint32_t lap, uint32_t sum) {
    out_lap = lap;
    out_sum = sum;
    pending = true;
  }

  void send() {
    volatile Token *t = (volatile Token *)tinselSendSlot();
    t->lap = out_lap;
    t->sum = out_sum;
    t->from = me;
    t->unused = 0;
    tinselSend((int)next, t);
    pending = false;
  }

  void recv() {
    volatile Token *t = (volatile Token *)tinselRecv();
    uint32_t lap = t->lap, sum = t->sum, from = t->from;
    tinselFree(t);
    received++;
    // Thread 0 gets the token back at the end of a lap: its whole sum.
    uint32_t want = pos == 0 ? expected_sum(received + 1, 0) : expected_sum(received, pos);
    if (lap != received || sum != want || from != prev) bad++;
    if (pos != 0) queue(lap, sum + pos + 1);
    else if (received < LAPS) queue(received + 1, sum + 1);
  }

  uint32_t me, pos, next, prev, received;
  bool pending;
  uint32_t bad, out_lap = 0, out_sum = 0;
};

int main() {
  RingDevice dev(tinselId());
  dev.run();
  dev.report();
  return 0;
}
