// tinsel.h (host model for tests/firmware/test_boot.c): the subset of the
// Tinsel API the boot loader uses, as functions of a scripted mailbox, so
// firmware/boot/boot.c runs unchanged on the host. Memory and the jump to
// the application are the BOOT_PTR / BOOT_START_APP hooks of boot.c.
#ifndef TINSEL_H
#define TINSEL_H
#include <stdint.h>
#include "tinsel_config.h"

extern uint32_t boot_mem[4096];              // models every data address (word index mod 4096)
#define BOOT_PTR(addr) (&boot_mem[((addr) >> 2) & 4095u])
void boot_start_app(void) __attribute__((noreturn));
#define BOOT_START_APP() boot_start_app()

uint32_t tinselId(void);
uint32_t tinselHostId(void);
void tinselSetLen(int n);
int tinselCanRecv(void);
typedef enum { TINSEL_CAN_SEND = TinselWakeCanSend, TINSEL_CAN_RECV = TinselWakeCanRecv } TinselWakeupCond;
void tinselWaitUntil(TinselWakeupCond cond);
volatile void *tinselRecv(void);
void tinselFree(volatile void *addr);
int tinselCanSend(void);
volatile void *tinselSendSlot(void);
void tinselSend(int dest, volatile void *addr);
void tinselWriteInstr(uint32_t addr, uint32_t word);
void tinselCacheFlush(void);
uint32_t tinselUartTryGet(void);
void tinselCreateThread(uint32_t id);
#endif
