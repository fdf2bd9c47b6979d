// test_boot.c: the boot loader (firmware/boot/boot.c, compiled for the
// host against boot_host/tinsel.h) driven by scripted host requests:
// SetAddr, WriteInstr and Store with auto-increment, Load replying one flit
// (4 words) per message, Start (flush, ack with the thread id, wait for the
// host's byte, start the threads, jump to the app), the argument-count
// clamp, unknown commands, and that every request slot is freed once.
#include <setjmp.h>
#include <string.h>
#include "boot_host/tinsel.h"
#include "unit.h"

void boot_main(void);

#define ME 0x1230u                    // this core's thread 0
uint32_t boot_mem[4096];

// Scripted mailbox.
static uint32_t reqs[32][16];
static int nreqs, next_req, freed, bad_free, len_set = -1, outstanding;
static uint32_t imem[2048];
static uint32_t sent[32][4], sent_dest[32];
static int nsent, flushed, flushed_before_ack, uart_polls, threads_created[16], started;
static uint32_t slot[16];
static jmp_buf out;                   // leaves boot_main: 1 = no more requests, 2 = app started

static void request(uint32_t cmd, uint32_t nargs, const uint32_t *args) {
  memset(reqs[nreqs], 0, sizeof reqs[nreqs]);
  reqs[nreqs][0] = cmd | nargs << 8;
  for (uint32_t i = 0; i < nargs && i < 15; i++) reqs[nreqs][1 + i] = args[i];
  nreqs++;
}

uint32_t tinselId(void) { return ME; }
uint32_t tinselHostId(void) { return TinselHostId; }
void tinselSetLen(int n) { len_set = n; }
int tinselCanRecv(void) {
  if (next_req == nreqs) longjmp(out, 1);
  return 1;
}
void tinselWaitUntil(TinselWakeupCond cond) { (void)cond; }   // tinselCanRecv is always 1 here
volatile void *tinselRecv(void) { outstanding++; return reqs[next_req++]; }
void tinselFree(volatile void *addr) {
  if (addr != reqs[next_req - 1] || outstanding != 1) bad_free = 1;
  outstanding--;
  freed++;
}
int tinselCanSend(void) { return 1; }
volatile void *tinselSendSlot(void) { return slot; }
void tinselSend(int dest, volatile void *addr) {
  if (addr != slot || nsent >= 32) { bad_free = 1; return; }
  memcpy(sent[nsent], slot, 16);
  sent_dest[nsent++] = (uint32_t)dest;
  if (flushed && nsent == 1) flushed_before_ack = 1;
}
void tinselWriteInstr(uint32_t addr, uint32_t word) { imem[(addr >> 2) & 2047u] = word; }
void tinselCacheFlush(void) { flushed = 1; }
uint32_t tinselUartTryGet(void) { return ++uart_polls >= 3 ? 0x100u | 'g' : 0; }
void tinselCreateThread(uint32_t id) { if (id < 16) threads_created[id]++; }
void boot_start_app(void) { started = 1; longjmp(out, 2); }

static int run(void) {
  int r = setjmp(out);
  if (r == 0) boot_main();
  return r;
}

int main(void) {
  const uint32_t code[4] = { 0x11111111, 0x22222222, 0x33333333, 0x44444444 };
  const uint32_t data[5] = { 10, 20, 30, 40, 50 };
  uint32_t many[20];
  for (int i = 0; i < 20; i++) many[i] = 7;
  request(TinselBootSetAddrCmd, 1, (uint32_t[]){ TinselMaxBootImageBytes });
  request(TinselBootWriteInstrCmd, 3, code);
  request(TinselBootWriteInstrCmd, 1, code + 3);          // continues where the last one stopped
  request(TinselBootSetAddrCmd, 1, (uint32_t[]){ TinselDRAMBase });
  request(TinselBootStoreCmd, 5, data);
  request(TinselBootSetAddrCmd, 1, (uint32_t[]){ TinselDRAMBase + 4 });
  request(TinselBootLoadCmd, 1, (uint32_t[]){ 4 + 1 });   // 5 words: replies of 4 and 1... from +4
  request(99, 0, NULL);                                    // unknown: ignored
  request(TinselBootStoreCmd, 200, many);                  // numArgs clamped to 15
  uint32_t after = (TinselDRAMBase >> 2) + 6;              // where that Store lands
  boot_mem[(after + 15) & 4095] = 0xdeadbeef;              // must survive
  CHECK(run() == 1, "boot loop waits for more requests");
  CHECK(len_set == 0, "replies are 1-flit messages (SetLen 0, got %d)", len_set);
  uint32_t base = TinselMaxBootImageBytes / 4;
  CHECK(imem[base] == code[0] && imem[base + 2] == code[2] && imem[base + 3] == code[3],
        "WriteInstr writes at SetAddr and auto-increments across requests");
  CHECK(boot_mem[(TinselDRAMBase >> 2) & 4095] == 10 && boot_mem[((TinselDRAMBase >> 2) + 4) & 4095] == 50,
        "Store writes words at SetAddr, auto-incrementing");
  CHECK(nsent == 2, "Load of 5 words: 2 replies (got %d)", nsent);
  CHECK(sent_dest[0] == TinselHostId && sent[0][0] == 20 && sent[0][3] == 50 && sent[1][0] == 0,
        "Load replies go to the host with the stored words (%u %u %u)", sent[0][0], sent[0][3], sent[1][0]);
  CHECK(freed == nreqs && !bad_free, "every request freed once (%d of %d)", freed, nreqs);
  // The clamped Store wrote 15 words after the Load's end, not 200 (nor 20).
  CHECK(boot_mem[(after + 14) & 4095] == 7 && boot_mem[(after + 15) & 4095] == 0xdeadbeef, "numArgs clamped to 15");

  // Start: flush, ack, wait for the host's byte, start 15 threads, jump.
  nsent = 0;
  request(TinselBootStartCmd, 1, (uint32_t[]){ TinselThreadsPerCore - 1 });
  CHECK(run() == 2 && started, "Start jumps to the application");
  CHECK(flushed && flushed_before_ack, "cache flushed before the ack");
  CHECK(nsent == 1 && sent[0][0] == ME && sent_dest[0] == TinselHostId, "ack carries tinselId (0x%x)",
        sent[0][0]);
  CHECK(uart_polls == 3, "waited for the host's byte (%d polls)", uart_polls);
  int all = threads_created[0] == 0;
  for (int t = 1; t < 16; t++) all &= threads_created[t] == 1;
  CHECK(all, "threads 1..15 created once each");
  CHECK(freed == nreqs && !bad_free, "Start's request freed");
  return UNIT_FINISH();
}
