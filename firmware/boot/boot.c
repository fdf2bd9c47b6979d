// boot.c: the boot loader, run by thread 0 of every core. It obeys the
// host's boot commands (tinsel.md §1.9): SetAddr, WriteInstr, Store, Load
// and Start. It must fit TinselMaxBootImageBytes with no data section, so:
// no switch (jump tables live in .rodata), no globals, no library calls.
#include "tinsel.h"
#include "boot.h"

// Memory and the jump to the application, as macros so that the host unit
// test (tests/firmware/test_boot.c) can run this file on a model of both.
#ifndef BOOT_PTR
#define BOOT_PTR(addr) ((volatile uint32_t *)(uintptr_t)(addr))
#endif
#ifndef BOOT_START_APP
#define BOOT_START_APP() ((void (*)(void))TinselMaxBootImageBytes)()
#endif

void boot_main(void) __attribute__((noreturn));

// Send the first `n` words at `src` to the host in one 1-flit message.
// Data caches are write-back and not coherent (tinsel.md §11): flush first,
// so that this thread's stores reach memory (Start: the loaded image) and
// its loads miss and read memory (Load: what other cores wrote back).
static void reply(const volatile uint32_t *src, uint32_t n) {
  tinselCacheFlush();
  volatile uint32_t *out = tinselSendSlot();
  while (!tinselCanSend()) {}
  for (uint32_t i = 0; i < n; i++) out[i] = src[i];
  tinselSend((int)tinselHostId(), out);
}

void boot_main(void) {
  uint32_t addr = 0;
  tinselSetLen(0);
  for (;;) {
    // Sleep, as Tinsel's boot loader does, rather than spin: a spinning
    // thread keeps the cycle model clocking while it waits for the host.
    while (!tinselCanRecv()) tinselWaitUntil(TINSEL_CAN_RECV);
    volatile BootReq *req = tinselRecv();
    uint32_t cmd = req->cmd, n = req->numArgs;
    if (n > TINSEL_BOOT_MAX_ARGS) n = TINSEL_BOOT_MAX_ARGS;
    volatile uint32_t *args = req->args;
    if (cmd == SetAddrCmd) {
      addr = args[0];
    } else if (cmd == WriteInstrCmd) {
      for (uint32_t i = 0; i < n; i++, addr += 4) tinselWriteInstr(addr, args[i]);
    } else if (cmd == StoreCmd) {
      for (uint32_t i = 0; i < n; i++, addr += 4) *BOOT_PTR(addr) = args[i];
    } else if (cmd == LoadCmd) {
      // args[0] words from addr, up to one flit's worth per reply.
      uint32_t words = args[0], per = 1u << TinselLogWordsPerFlit;
      tinselFree(req);
      while (words) {
        uint32_t k = words < per ? words : per;
        reply(BOOT_PTR(addr), k);
        addr += 4 * k;
        words -= k;
      }
      continue;
    } else if (cmd == StartCmd) {
      uint32_t threads = args[0];
      tinselFree(req);
      volatile uint32_t me = tinselId();   // on the DRAM stack: reply's load of it
      reply(&me, 1);                       // waits for the flush's writebacks
      while (!(tinselUartTryGet() & 0x100u)) {}     // the host's "go"
      for (uint32_t t = 1; t <= threads; t++) tinselCreateThread(t);
      BOOT_START_APP();
      continue;                                      // the app's main returned
    }
    tinselFree(req);
  }
}
