// tests/hostlink/off_board.c: a message that leaves the board where nothing
// listens must stop tsim with a clear message, not vanish: thread 0 of core
// 0 sends one message to the host (TO_HOST) or to a thread of board (1, 0)
// (otherwise). Built with tests/sim's start code (tohost) for the tile
// configuration and run without --hostlink: run.sh expects exit 125.
#include <stdint.h>
#include "tinsel.h"

int main(void) {
  if (tinselId() != 0) return 0;
  volatile uint32_t *slot = tinselSendSlot();
  slot[0] = 0x1234;
  tinselSetLen(0);
#ifdef TO_HOST
  tinselSend((int)tinselHostId(), slot);
#else
  tinselSend((int)tinselToAddr(1, 0, 0, 0, 0, 5), slot);
#endif
  tinselWaitUntil(TINSEL_CAN_SEND);
  for (uint32_t i = 0; i < 100000; i++) __asm__ volatile("");   // the message travels
  return 2;   // not reached: tsim halts
}
