// stdlib.h: the integer absolute values, all firmware has of C's stdlib.h.
#ifndef FW_STDLIB_H
#define FW_STDLIB_H
static inline int abs(int x) { return x < 0 ? -x : x; }
static inline long labs(long x) { return x < 0 ? -x : x; }
#endif
