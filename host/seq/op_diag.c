/* op_diag.c: op_diagnostic_output's tables and op_printf. */
#include <stdarg.h>
#include <stdio.h>

#include "op_internal.h"

static void print_sets(void) {
  printf("  -------------------- set info --------------------\n");
  printf("  %-20s %10s\n", "set name", "size");
  for (int i = 0; i < op_state.nsets; i++)
    printf("  %-20s %10d\n", op_state.sets[i]->name, op_state.sets[i]->size);
}

static void print_maps(void) {
  printf("  -------------------- map info --------------------\n");
  printf("  %-20s %5s %-12s %-12s\n", "map name", "dim", "from", "to");
  for (int i = 0; i < op_state.nmaps; i++) {
    op_map m = op_state.maps[i];
    printf("  %-20s %5d %-12s %-12s\n", m->name, m->dim, m->from->name, m->to->name);
  }
}

static void print_dats(void) {
  printf("  -------------------- dat info --------------------\n");
  printf("  %-20s %5s %-12s %-8s\n", "dat name", "dim", "set", "type");
  for (int i = 0; i < op_state.ndats; i++) {
    op_dat d = op_state.dats[i];
    if (d)
      printf("  %-20s %5d %-12s %-8s\n", d->name, d->dim, d->set->name, d->type);
  }
}

void op_diagnostic_output(void) {
  if (op_state.diags <= 1)
    return;
  printf("\n  OP diagnostic output\n");
  print_sets();
  print_maps();
  print_dats();
  printf("\n");
}

void op_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
}
