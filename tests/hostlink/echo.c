// tests/hostlink/echo.c: thread 0 of core 0 answers every message from the
// host with one message (the first word plus one), forever; the run ends
// when the host closes the link. For boot_test --echo (run.sh): the host
// sends each message after a different pause, so its message enters the
// quiet board at every point of tsim's quiet count (tsim_hostlink.c). Built
// with tests/sim's start code for the tile configuration.
#include <stdint.h>
#include "tinsel.h"

int main(void) {
  if (tinselId() != 0) return 0;
  tinselSetLen(0);
  for (;;) {
    tinselWaitUntil(TINSEL_CAN_RECV);
    volatile uint32_t *in = tinselRecv();
    uint32_t v = in[0];
    tinselFree(in);
    tinselWaitUntil(TINSEL_CAN_SEND);
    volatile uint32_t *out = tinselSendSlot();
    out[0] = v + 1;
    tinselSend((int)tinselHostId(), out);
  }
}
