// stdio.c: printf and friends on the debug link. tinselUartTryPut fails
// while the link is busy, so each byte is retried until it is taken.
#include <stdio.h>
#include "fwlib.h"
#include "tinsel.h"

int putchar(int c) {
  while (!tinselUartTryPut((uint8_t)c)) {}
  return (unsigned char)c;
}

// The symbol puts is Tinsel's (io.h): no newline, returns the count.
// stdio.h maps the name to fw_puts_line for C code; not here.
#undef puts
int puts(const char *s) {
  int n = 0;
  for (; s[n]; n++) putchar(s[n]);
  return n;
}

int fw_puts_line(const char *s) {
  puts(s);
  putchar('\n');
  return 0;
}

int puthex(unsigned x) {
  for (int shift = 28; shift >= 0; shift -= 4) putchar("0123456789abcdef"[(x >> shift) & 15u]);
  return 8;
}

static void put_uart(void *ctx, char c) { (void)ctx; putchar(c); }

int vprintf(const char *fmt, va_list ap) { return fw_vformat(put_uart, 0, fmt, ap); }

int printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vprintf(fmt, ap);
  va_end(ap);
  return n;
}
