/*
 * devout.c: what device code prints (printf, puts, putchar in a kernel) on
 * the engines that run it on the host: functional and softswitch. The
 * generated device code, compiled for the host, calls these instead of the
 * C library's (op2_shared.inc), and the engine says which thread runs
 * before it runs a handler or a softswitch step (op2t_devout_at).
 *
 * Output is as on a POETS box (the sim and hostlink engines, whose lines
 * HostLink's debug link assembles, host/hostlink/hl_debug.c): bytes are
 * gathered per thread and each complete line is printed to stdout,
 * prefixed "X:Y:C:T: " (the thread's board X and Y, its core within the
 * board and its thread within the core; with OP2_TINSEL_BEGIN_END=device,
 * where devices are not placed on threads, "TYPE[INDEX]: "). A line that is still incomplete at
 * exit is printed with a newline added (op2t_devout_flush).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "images.h"
#include "op2t_internal.h"

/* Whose bytes: a thread address, or (OP2_TINSEL_BEGIN_END=device, no
   placement) a device: DEVICE_KEY | type << 32 | index. */
#define DEVICE_KEY ((uint64_t)1 << 40)

typedef struct {
  uint64_t who;
  const char *type;    /* a device's type name */
  char *text;
  size_t len, cap;
} Line;

static struct {
  uint64_t cur;
  const char *cur_type;
  Line *lines;         /* incomplete lines, one per thread that has one */
  int n, cap;
} out;

void op2t_devout_at(uint32_t addr) { out.cur = addr; }

void op2t_devout_at_device(const char *type, int t, int d) {
  out.cur = DEVICE_KEY | (uint64_t)t << 32 | (uint32_t)d;
  out.cur_type = type;
}

/* A thread address (tinsel.md §2.4: {board Y, board X, thread within the
   board}) as X:Y:C:T; a device as TYPE[INDEX]. */
static void prefix(FILE *f, uint64_t who, const char *type) {
  if (who & DEVICE_KEY) {
    fprintf(f, "%s[%u]: ", type, (unsigned)(uint32_t)who);
    return;
  }
  uint32_t addr = (uint32_t)who;
  const PlaceMachine *m = op2t_machine();
  int lb = m->log_threads_per_board;
  uint32_t in_board = addr & (((uint32_t)1 << lb) - 1), tpc = (uint32_t)m->threads_per_core;
  uint32_t bx = (addr >> lb) & (((uint32_t)1 << m->mesh_x_bits) - 1), by = addr >> (lb + m->mesh_x_bits);
  fprintf(f, "%u:%u:%u:%u: ", bx, by, in_board / tpc, in_board % tpc);
}

static Line *find(uint64_t who) {
  for (int i = 0; i < out.n; i++)
    if (out.lines[i].who == who)
      return &out.lines[i];
  return NULL;
}

static Line *add(uint64_t who, const char *type) {
  if (out.n == out.cap) {
    out.cap = out.cap ? 2 * out.cap : 16;
    out.lines = op2t_grow(out.lines, (size_t)out.cap, sizeof(Line));
  }
  out.lines[out.n] = (Line){ .who = who, .type = type };
  return &out.lines[out.n++];
}

static void emit(Line *l) {
  prefix(stdout, l->who, l->type);
  fwrite(l->text, 1, l->len, stdout);
  fputc('\n', stdout);
  free(l->text);
  *l = out.lines[--out.n];
}

static void put_bytes(const char *s, size_t n) {
  while (n > 0) {
    const char *nl = memchr(s, '\n', n);
    size_t k = nl ? (size_t)(nl - s) : n;
    Line *l = find(out.cur);
    if (nl && !l) { /* a whole line: straight out */
      prefix(stdout, out.cur, out.cur_type);
      fwrite(s, 1, k + 1, stdout);
    } else {
      if (!l)
        l = add(out.cur, out.cur_type);
      if (l->len + k > l->cap) {
        l->cap = l->len + k + 80;
        l->text = op2t_grow(l->text, l->cap, 1);
      }
      memcpy(l->text + l->len, s, k);
      l->len += k;
      if (nl)
        emit(l);
    }
    s += k + (nl != NULL);
    n -= k + (nl != NULL);
  }
}

int op2t_dev_putchar(int c) {
  char b = (char)c;
  put_bytes(&b, 1);
  return (unsigned char)c;
}

int op2t_dev_puts(const char *s) {
  put_bytes(s, strlen(s));
  put_bytes("\n", 1);
  return 0;
}

int op2t_dev_printf(const char *fmt, ...) {
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof(small), fmt, ap);
  va_end(ap);
  if (n < 0)
    return n;
  if ((size_t)n < sizeof(small)) {
    put_bytes(small, (size_t)n);
    return n;
  }
  char *big = op2t_calloc((size_t)n + 1, 1);
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  put_bytes(big, (size_t)n);
  free(big);
  return n;
}

void op2t_devout_flush(void) {
  while (out.n > 0)
    emit(&out.lines[out.n - 1]);
  free(out.lines);
  out.lines = NULL;
  out.cap = 0;
  fflush(stdout);
}
