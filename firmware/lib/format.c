// format.c: the compact printf formatter used by printf and assert.
// Integer conversions only; digits come from repeated division by the
// base, which on Tinsel is the software divide (fw_udivmod64).
#include "fwlib.h"

typedef struct { fw_put_fn put; void *ctx; int n; } out_t;

static void emit(out_t *o, char c) { o->put(o->ctx, c); o->n++; }

static void pad(out_t *o, char c, int count) { while (count-- > 0) emit(o, c); }

// One converted field: sign/prefix, zero padding, digits, justification.
static void field(out_t *o, const char *prefix, const char *body, int len,
                  int width, int left, int zero) {
  int plen = 0;
  while (prefix[plen]) plen++;
  int fill = width - plen - len;
  if (!left && !zero) pad(o, ' ', fill);
  for (int i = 0; i < plen; i++) emit(o, prefix[i]);
  if (!left && zero) pad(o, '0', fill);
  for (int i = 0; i < len; i++) emit(o, body[i]);
  if (left) pad(o, ' ', fill);
}

// Digits of v in base, most significant first, into buf (22 bytes is
// enough for 64-bit octal); returns the count.
static int digits(uint64_t v, unsigned base, int upper, char *buf) {
  char tmp[24];
  int n = 0;
  const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  do {
    uint64_t r;
    v = fw_udivmod64(v, base, &r);
    tmp[n++] = set[r];
  } while (v);
  for (int i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
  return n;
}

int fw_vformat(fw_put_fn put, void *ctx, const char *fmt, va_list ap) {
  out_t o = { put, ctx, 0 };
  for (; *fmt; fmt++) {
    if (*fmt != '%') { emit(&o, *fmt); continue; }
    int left = 0, zero = 0, width = 0, lng = 0;
    for (;; fmt++) {
      if (fmt[1] == '-') left = 1;
      else if (fmt[1] == '0') zero = 1;
      else break;
    }
    fmt++;
    if (*fmt == '*') { width = va_arg(ap, int); if (width < 0) { left = 1; width = -width; } fmt++; }
    while (*fmt >= '0' && *fmt <= '9') width = width * 10 + (*fmt++ - '0');
    while (*fmt == 'l' || *fmt == 'h' || *fmt == 'z') { if (*fmt != 'h') lng++; fmt++; }
    char buf[24];
    uint64_t u;
    switch (*fmt) {
    case 'd': case 'i': {
      int64_t v = lng >= 2 ? va_arg(ap, long long) : lng ? va_arg(ap, long) : va_arg(ap, int);
      u = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
      field(&o, v < 0 ? "-" : "", buf, digits(u, 10, 0, buf), width, left, zero);
      break;
    }
    case 'u': case 'x': case 'X': case 'o':
      u = lng >= 2 ? va_arg(ap, unsigned long long) : lng ? va_arg(ap, unsigned long)
                                                           : va_arg(ap, unsigned);
      field(&o, "", buf, digits(u, *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16, *fmt == 'X', buf),
            width, left, zero);
      break;
    case 'p':
      u = (uint64_t)(uintptr_t)va_arg(ap, void *);
      field(&o, "0x", buf, digits(u, 16, 0, buf), width, left, zero);
      break;
    case 'c':
      buf[0] = (char)va_arg(ap, int);
      field(&o, "", buf, 1, width, left, 0);
      break;
    case 's': {
      const char *s = va_arg(ap, const char *);
      if (!s) s = "(null)";
      int len = 0;
      while (s[len]) len++;
      field(&o, "", s, len, width, left, 0);
      break;
    }
    case '%': emit(&o, '%'); break;
    case '\0': return o.n;               // a lone '%' at the end
    default: emit(&o, '%'); emit(&o, *fmt); break; // unknown: print as is
    }
  }
  return o.n;
}
