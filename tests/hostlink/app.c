// tests/hostlink/app.c: the application the host test (boot_test.c) boots
// onto every core of a board through the host link. Every thread says
// hello to the host, then echoes the one message the host sends it; thread
// 5 of core 3 prints a line to the DebugLink; thread 0 of each core records
// its id in DRAM, a line per core, and flushes it for the host to read back
// (hl_load) once main returns to the boot loader.
#include <stdio.h>
#include "tinsel.h"
#include "wire.h"

// DRAM globals: one array per DRAM, a line per core.
volatile uint32_t app_results[TinselCoresPerDRAM * APP_RESULT_WORDS] __attribute__((aligned(TinselBytesPerLine)));

static void send_host(uint32_t w0, uint32_t w1, uint32_t w2) {
  volatile uint32_t *out = tinselSendSlot();
  tinselWaitUntil(TINSEL_CAN_SEND);
  out[0] = w0;
  out[1] = w1;
  out[2] = w2;
  tinselSend((int)tinselHostId(), out);
}

int main(void) {
  uint32_t me = tinselId();
  tinselSetLen(0);
  send_host(me, APP_HELLO, 0);
  while (!tinselCanRecv()) tinselWaitUntil(TINSEL_CAN_RECV);
  volatile uint32_t *in = tinselRecv();
  uint32_t tag = in[0], value = in[1];
  tinselFree(in);
  send_host(me, tag == APP_PING ? APP_ECHO : APP_BAD, value + 1);
  if (me % (TinselCoresPerBoard * TinselThreadsPerCore) == 3 * TinselThreadsPerCore + 5)
    printf("hello from core 3 thread 5\n");
  if ((me & (TinselThreadsPerCore - 1)) == 0) {
    uint32_t core = (me >> TinselLogThreadsPerCore) & (TinselCoresPerDRAM - 1);
    app_results[core * APP_RESULT_WORDS] = APP_RESULT(me);
    tinselCacheFlush();
  }
  // Thread 0 returns to the boot loader, the others stop.
  tinselWaitUntil(TINSEL_CAN_SEND);
  return 0;
}
