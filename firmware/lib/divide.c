// divide.c: integer division by shift and subtract. Tinsel has a
// multiplier but no divider (tinsel.md §1.1), so firmware is built with
// -mno-div and gcc calls the libgcc entry points in libgcc_div.c, which
// wrap these. Pure C: the host unit tests check them against '/' and '%'.
#include "fwlib.h"

uint32_t fw_udivmod32(uint32_t n, uint32_t d, uint32_t *rem) {
  uint32_t q = 0, r = 0;
  if (d == 0) { // RISC-V's answer for division by zero: all ones, remainder n
    if (rem) *rem = n;
    return 0xffffffffu;
  }
  for (int i = 31; i >= 0; i--) {
    r = (r << 1) | ((n >> i) & 1u);
    if (r >= d) { r -= d; q |= 1u << i; }
  }
  if (rem) *rem = r;
  return q;
}

uint64_t fw_udivmod64(uint64_t n, uint64_t d, uint64_t *rem) {
  uint64_t q = 0, r = 0;
  if (d == 0) {
    if (rem) *rem = n;
    return ~(uint64_t)0;
  }
  for (int i = 63; i >= 0; i--) {
    r = (r << 1) | ((n >> i) & 1u);
    if (r >= d) { r -= d; q |= (uint64_t)1 << i; }
  }
  if (rem) *rem = r;
  return q;
}

// Signed: C truncates toward zero; the remainder takes the dividend's sign.
int32_t fw_divmod32(int32_t n, int32_t d, int32_t *rem) {
  uint32_t un = n < 0 ? 0u - (uint32_t)n : (uint32_t)n;
  uint32_t ud = d < 0 ? 0u - (uint32_t)d : (uint32_t)d;
  uint32_t ur, uq = fw_udivmod32(un, ud, &ur);
  if (d == 0) { if (rem) *rem = n; return -1; }
  if (rem) *rem = n < 0 ? (int32_t)(0u - ur) : (int32_t)ur;
  return (n < 0) != (d < 0) ? (int32_t)(0u - uq) : (int32_t)uq;
}

int64_t fw_divmod64(int64_t n, int64_t d, int64_t *rem) {
  uint64_t un = n < 0 ? 0u - (uint64_t)n : (uint64_t)n;
  uint64_t ud = d < 0 ? 0u - (uint64_t)d : (uint64_t)d;
  uint64_t ur, uq = fw_udivmod64(un, ud, &ur);
  if (d == 0) { if (rem) *rem = n; return -1; }
  if (rem) *rem = n < 0 ? (int64_t)(0u - ur) : (int64_t)ur;
  return (n < 0) != (d < 0) ? (int64_t)(0u - uq) : (int64_t)uq;
}
