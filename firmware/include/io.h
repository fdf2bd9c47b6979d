// io.h: a thread's output on the DebugLink, as Tinsel's apps use it
// (tinsel.md §11). Unlike C's, this puts adds no newline and returns the
// number of characters written; puthex writes 8 lowercase hex digits.
// printf is firmware/lib/format.c's formatter (the %-conversions of C's
// printf without floating point), a superset of Tinsel's %s and %x; its %x
// is C's (no zero padding: use puthex or %08x for Tinsel's 8 digits).
// Including stdio.h as well gives C's puts instead (stdio.h).
#ifndef FW_IO_H
#define FW_IO_H

#ifdef __cplusplus
extern "C" {
#endif

int putchar(int c);
int puts(const char *s);
int puthex(unsigned x);
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#ifdef __cplusplus
}
#endif

#endif
