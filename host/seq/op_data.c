/* op_data.c: copying dats out and writing them to files. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "op_internal.h"

static void check_dat(op_dat dat, const char *fn) {
  if (!dat)
    op_fatal("%s: NULL dat", fn);
}

void op_fetch_data(op_dat dat, void *dest) {
  check_dat(dat, "op_fetch_data");
  if (!dest)
    op_fatal("op_fetch_data: NULL destination for dat \"%s\"", dat->name);
  op_hook_host_read(dat);
  memcpy(dest, dat->data, (size_t)dat->set->size * (size_t)dat->size);
}

/* Elements low..high inclusive, as OP2. */
void op_fetch_data_idx(op_dat dat, void *dest, int low, int high) {
  check_dat(dat, "op_fetch_data_idx");
  if (low < 0 || high >= dat->set->size || low > high)
    op_fatal("op_fetch_data_idx: range %d..%d is not within dat \"%s\" on set \"%s\" of size %d",
             low, high, dat->name, dat->set->name, dat->set->size);
  if (!dest)
    op_fatal("op_fetch_data_idx: NULL destination for dat \"%s\"", dat->name);
  op_hook_host_read(dat);
  memcpy(dest, dat->data + (size_t)low * dat->size, (size_t)(high - low + 1) * dat->size);
}

static FILE *open_or_die(const char *file, const char *mode, const char *fn, op_dat dat) {
  FILE *f = file ? fopen(file, mode) : NULL;
  if (!f)
    op_fatal("%s: cannot open \"%s\" for writing dat \"%s\"", fn, file ? file : "(null)",
             dat->name);
  return f;
}

/* -0.0 prints as +0.0 so files compare equal across sign-of-zero noise. */
static double unsign_zero(double v) { return v == 0.0 ? 0.0 : v; }

/* One value at p of the dat's type. Floats get 9 significant digits, enough to round-trip. */
static void print_value(FILE *f, const char *type, const char *p) {
  if (strcmp(type, "double") == 0) {
    double v;
    memcpy(&v, p, sizeof(v));
    fprintf(f, " %+2.15lE", unsign_zero(v));
  } else if (strcmp(type, "float") == 0) {
    float v;
    memcpy(&v, p, sizeof(v));
    fprintf(f, " %+2.8E", unsign_zero(v));
  } else if (strcmp(type, "int") == 0) {
    int v;
    memcpy(&v, p, sizeof(v));
    fprintf(f, " %d", v);
  } else if (strcmp(type, "uint") == 0) {
    unsigned v;
    memcpy(&v, p, sizeof(v));
    fprintf(f, " %u", v);
  } else if (strcmp(type, "ll") == 0) {
    long long v;
    memcpy(&v, p, sizeof(v));
    fprintf(f, " %lld", v);
  } else if (strcmp(type, "ull") == 0) {
    unsigned long long v;
    memcpy(&v, p, sizeof(v));
    fprintf(f, " %llu", v);
  } else {
    bool v;
    memcpy(&v, p, sizeof(v));
    fprintf(f, " %d", (int)v);
  }
}

void op_print_dat_to_txtfile(op_dat dat, const char *file) {
  check_dat(dat, "op_print_dat_to_txtfile");
  op_hook_host_read(dat);
  FILE *f = open_or_die(file, "w", "op_print_dat_to_txtfile", dat);
  int esize = dat->size / dat->dim;
  fprintf(f, "%lld %d\n", (long long)dat->set->size, dat->dim);
  for (int n = 0; n < dat->set->size; n++) {
    const char *elem = dat->data + (size_t)n * dat->size;
    for (int d = 0; d < dat->dim; d++)
      print_value(f, dat->type, elem + (size_t)d * esize);
    fprintf(f, "\n");
  }
  if (fclose(f) != 0)
    op_fatal("op_print_dat_to_txtfile: error writing \"%s\"", file);
}

void op_print_dat_to_binfile(op_dat dat, const char *file) {
  check_dat(dat, "op_print_dat_to_binfile");
  op_hook_host_read(dat);
  FILE *f = open_or_die(file, "wb", "op_print_dat_to_binfile", dat);
  int header[2] = {dat->set->size, dat->dim};
  size_t n = (size_t)dat->set->size;
  if (fwrite(header, sizeof(int), 2, f) != 2 ||
      (n && fwrite(dat->data, (size_t)dat->size, n, f) != n) || fclose(f) != 0)
    op_fatal("op_print_dat_to_binfile: error writing \"%s\"", file);
}
