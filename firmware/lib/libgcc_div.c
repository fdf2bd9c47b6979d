// libgcc_div.c: the libgcc division entry points gcc calls under -mno-div.
// Firmware links without libgcc's own versions, which use div/rem.
#include "fwlib.h"

int32_t __divsi3(int32_t a, int32_t b);
int32_t __modsi3(int32_t a, int32_t b);
uint32_t __udivsi3(uint32_t a, uint32_t b);
uint32_t __umodsi3(uint32_t a, uint32_t b);
int64_t __divdi3(int64_t a, int64_t b);
int64_t __moddi3(int64_t a, int64_t b);
uint64_t __udivdi3(uint64_t a, uint64_t b);
uint64_t __umoddi3(uint64_t a, uint64_t b);

int32_t __divsi3(int32_t a, int32_t b) { return fw_divmod32(a, b, 0); }
int32_t __modsi3(int32_t a, int32_t b) { int32_t r; fw_divmod32(a, b, &r); return r; }
uint32_t __udivsi3(uint32_t a, uint32_t b) { return fw_udivmod32(a, b, 0); }
uint32_t __umodsi3(uint32_t a, uint32_t b) { uint32_t r; fw_udivmod32(a, b, &r); return r; }
int64_t __divdi3(int64_t a, int64_t b) { return fw_divmod64(a, b, 0); }
int64_t __moddi3(int64_t a, int64_t b) { int64_t r; fw_divmod64(a, b, &r); return r; }
uint64_t __udivdi3(uint64_t a, uint64_t b) { return fw_udivmod64(a, b, 0); }
uint64_t __umoddi3(uint64_t a, uint64_t b) { uint64_t r; fw_udivmod64(a, b, &r); return r; }
