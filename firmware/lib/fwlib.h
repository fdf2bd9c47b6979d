// fwlib.h: the pure parts of the firmware's small libc, with fw_ names so
// that the host unit tests can link them beside the host's own libc. The
// standard names (memcpy, printf, sqrtf, __divsi3, ...) are defined in the
// firmware-only files and the headers in firmware/include/.
#ifndef FWLIB_H
#define FWLIB_H

#include <stdarg.h>
#include <stdint.h>

uint32_t fw_udivmod32(uint32_t n, uint32_t d, uint32_t *rem);
uint64_t fw_udivmod64(uint64_t n, uint64_t d, uint64_t *rem);
int32_t fw_divmod32(int32_t n, int32_t d, int32_t *rem);
int64_t fw_divmod64(int64_t n, int64_t d, int64_t *rem);

float fw_sqrtf(float x);

// Software double on bit patterns (softdouble.c): correctly rounded, RNE.
uint64_t fw_dadd(uint64_t a, uint64_t b);
uint64_t fw_dsub(uint64_t a, uint64_t b);
uint64_t fw_dmul(uint64_t a, uint64_t b);
uint64_t fw_ddiv(uint64_t a, uint64_t b);
uint64_t fw_dsqrt(uint64_t a);
int fw_dcmp(uint64_t a, uint64_t b, int unordered); // -1, 0, 1, or `unordered` for NaNs
uint64_t fw_dfrom_i64(int64_t v);
uint64_t fw_dfrom_u64(uint64_t v);
int64_t fw_dto_i64(uint64_t a);                     // truncates; saturates
uint64_t fw_dto_u64(uint64_t a);
uint64_t fw_dfrom_f32(uint32_t f);
uint32_t fw_dto_f32(uint64_t a);

// printf's formatter: %d %i %u %x %X %o %c %s %p %%, flags '-' and '0',
// a width (or *), and the l/ll/z/h length modifiers. No floating point
// (it would pull in soft double). Calls put(ctx, c) per character and
// returns the number of characters.
typedef void (*fw_put_fn)(void *ctx, char c);
int fw_vformat(fw_put_fn put, void *ctx, const char *fmt, va_list ap);

#endif
