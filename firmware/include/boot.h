// boot.h: the boot loader's requests, for the boot loader
// (firmware/boot/boot.c) and host code, with Tinsel 0.8.3's names
// (tinsel.md §1.9). One request is one message: the command, the number of
// argument words used, and the arguments. The command codes are boards/
// facts (TinselBoot*Cmd); this is the one place that names them so.
#ifndef FW_BOOT_H
#define FW_BOOT_H

#include <stdint.h>
#include "tinsel_config.h"

// Argument words in one request: a message less the header word.
#define TINSEL_BOOT_MAX_ARGS (TinselBytesPerMsg / 4 - 1)

typedef struct {
  uint8_t cmd;                            // a BootCmd
  uint8_t numArgs;                        // argument words used
  uint16_t unused;
  uint32_t args[TINSEL_BOOT_MAX_ARGS];
} BootReq;

typedef enum {
  SetAddrCmd = TinselBootSetAddrCmd,        // args[0]: the address register
  WriteInstrCmd = TinselBootWriteInstrCmd,  // instruction words at the address, which advances
  StoreCmd = TinselBootStoreCmd,            // data words at the address, which advances
  LoadCmd = TinselBootLoadCmd,              // args[0] words from the address back to the host
  StartCmd = TinselBootStartCmd             // args[0] more threads; then the application
} BootCmd;

#ifndef __cplusplus
_Static_assert(sizeof(BootReq) == TinselBytesPerMsg, "a boot request is one message");
#endif

#endif
