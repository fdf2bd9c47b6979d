// stdio.c: printf and friends on the debug link. tinselUartTryPut fails
// while the link is busy, so each byte is retried until it is taken.
#include <stdio.h>
#include "fwlib.h"
#include "tinsel.h"

int putchar(int c) {
  while (!tinselUartTryPut((uint8_t)c)) {}
  return (unsigned char)c;
}

int puts(const char *s) {
  while (*s) putchar(*s++);
  putchar('\n');
  return 0;
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
