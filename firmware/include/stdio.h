// stdio.h: output to the debug link (DebugLink StdOut, one byte per
// tinselUartTryPut), for firmware. printf is firmware/lib/format.c's
// integer-only formatter: no %f.
#ifndef FW_STDIO_H
#define FW_STDIO_H
#include <stdarg.h>
int putchar(int c);
int puts(const char *s);
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap);
#endif
