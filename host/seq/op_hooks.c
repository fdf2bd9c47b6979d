/*
 * op_hooks.c: where a runtime that keeps dats elsewhere hears of the
 * host's reads and writes of dat data. libop2_tinsel keeps dats resident
 * on the devices between invocations and brings a copy back only when the
 * host reads it; the seq runtime itself registers nothing.
 */
#include "op_internal.h"

static op_rt_hooks hooks;

void op_rt_set_hooks(const op_rt_hooks *h) {
  if (h)
    hooks = *h;
  else
    hooks = (op_rt_hooks){0};
}

void op_hook_host_read(op_dat dat) {
  if (hooks.host_read && dat)
    hooks.host_read(dat);
}

void op_hook_host_wrote(op_dat dat) {
  if (hooks.host_wrote && dat)
    hooks.host_wrote(dat);
}

void op_hook_freed(op_dat dat) {
  if (hooks.freed && dat)
    hooks.freed(dat);
}

void op_hook_timers(void) {
  if (hooks.timers)
    hooks.timers();
}

void op_hook_exiting(void) {
  if (hooks.exiting)
    hooks.exiting();
}
