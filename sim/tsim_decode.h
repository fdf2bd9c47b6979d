/* tsim_decode.h: instruction names for tsim's halt messages. */
#ifndef TSIM_DECODE_H
#define TSIM_DECODE_H
#include <stdint.h>
/* The mnemonic of an RV32IMF (or Tinsel Send) instruction, or "illegal". */
const char *tsim_mnemonic(uint32_t instr);
#endif
