/*
 * seqrt_test.c: unit tests of libop2_seq without op2c. Loops are written
 * by hand the way op2c generates them (enter, kernel calls, exit).
 *
 *   seqrt_test unit         ASSERT-style checks of the API
 *   seqrt_test output DIR   writes dat files into DIR, prints the tables
 *   seqrt_test errors       lists the error cases: name|expected message
 *   seqrt_test error NAME   runs one error case (expected to exit 1)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op_seq.h"

static int checks, failures;

#define ASSERT(cond)                                                           \
  do {                                                                         \
    checks++;                                                                  \
    if (!(cond)) {                                                             \
      failures++;                                                              \
      printf("%s:%d: assertion failed: %s\n", __FILE__, __LINE__, #cond);      \
    }                                                                          \
  } while (0)

/* A 3x1 strip: 4 nodes, 3 edges (node i -> i+1), 2 "cells" edges touch. */
static int edge_nodes[] = {0, 1, 1, 2, 2, 3};

static void test_decls(void) {
  op_set nodes = op_decl_set(4, "nodes");
  op_set edges = op_decl_set(3, "edges");
  int buf[6];
  memcpy(buf, edge_nodes, sizeof(buf));
  op_map m = op_decl_map(edges, nodes, 2, buf, "pedge");
  buf[0] = 99; /* the map owns a copy */
  ASSERT(m->map[0] == 0 && m->map[5] == 3 && m->dim == 2);
  ASSERT(m->from == edges && m->to == nodes && strcmp(m->name, "pedge") == 0);

  double x[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  op_dat px = op_decl_dat(nodes, 2, "double", x, "p_x");
  x[0] = -1;
  ASSERT(((double *)px->data)[0] == 0 && ((double *)px->data)[7] == 7);
  ASSERT(px->size == 16 && px->dim == 2 && px->set == nodes && strcmp(px->type, "double") == 0);

  static const struct { const char *type; int size; } sizes[] = {
    {"float", 4}, {"int", 4}, {"uint", 4}, {"ll", 8}, {"ull", 8}, {"bool", 1}, {"double", 8}};
  for (int i = 0; i < 7; i++) {
    op_dat d = op_decl_dat_temp(edges, 3, sizes[i].type, x, "t");
    ASSERT(d->size == 3 * sizes[i].size && d->is_temp);
    bool zero = true;
    for (int b = 0; b < 3 * d->size; b++)
      zero = zero && d->data[b] == 0;
    ASSERT(zero); /* temp dats ignore the data pointer */
    ASSERT(op_free_dat_temp(d) == 0);
    ASSERT(op_free_dat_temp(d) < 0);
  }
  ASSERT(op_free_dat_temp(px) < 0); /* not a temp dat */
  ASSERT(op_get_size(nodes) == 4 && op_get_size(edges) == 3);
  ASSERT(op_is_root() == 1);
}

static void test_args(void) {
  op_set nodes = op_decl_set(4, "n2");
  op_set edges = op_decl_set(3, "e2");
  op_map m = op_decl_map(edges, nodes, 2, edge_nodes, "m2");
  op_dat d = op_decl_dat(nodes, 1, "float", NULL, "d2");
  op_arg a = op_arg_dat(d, 1, m, 1, "float", OP_INC);
  ASSERT(a.argtype == OP_ARG_DAT && a.dat == d && a.map == m && a.idx == 1 && a.dim == 1);
  ASSERT(a.size == 4 && a.data == d->data && a.map_data == m->map && a.acc == OP_INC && a.opt);
  ASSERT(strcmp(a.type, "float") == 0);
  a = op_opt_arg_dat(0, d, 0, m, 1, "float", OP_READ);
  ASSERT(!a.opt && a.data == NULL);
  double g[3];
  a = op_arg_gbl(g, 3, "double", OP_MAX);
  ASSERT(a.argtype == OP_ARG_GBL && a.size == 24 && a.data == (char *)g && a.map == NULL);
  ASSERT(a.dim == 3 && a.acc == OP_MAX && a.dat == NULL);
  a = op_opt_arg_gbl(0, g, 1, "int", OP_INC);
  ASSERT(!a.opt && a.data == NULL && a.size == 4);
  a = op_arg_idx(-1, OP_ID);
  ASSERT(a.argtype == OP_ARG_IDX && a.idx == -1 && a.map == NULL && a.map_data == NULL);
  a = op_arg_idx(1, m);
  ASSERT(a.argtype == OP_ARG_IDX && a.map_data == m->map);
}

/* Kernel and hand-written loop: y[n] += x[left] + x[right], count edges. */
static void edge_sum(const double *xl, const double *xr, double *y, int *count) {
  *y += *xl + *xr;
  (*count)++;
}

static void test_loop(void) {
  op_set nodes = op_decl_set(4, "n3");
  op_set edges = op_decl_set(3, "e3");
  op_map m = op_decl_map(edges, nodes, 2, edge_nodes, "m3");
  double xs[4] = {1, 2, 4, 8};
  op_dat x = op_decl_dat(nodes, 1, "double", xs, "x3");
  op_dat y = op_decl_dat(edges, 1, "double", NULL, "y3");
  int count = 0;
  op_arg args[4] = {op_arg_dat(x, 0, m, 1, "double", OP_READ),
                    op_arg_dat(x, 1, m, 1, "double", OP_READ),
                    op_arg_dat(y, -1, OP_ID, 1, "double", OP_INC),
                    op_arg_gbl(&count, 1, "int", OP_INC)};
  for (int rep = 0; rep < 2; rep++) {
    double t0 = op_rt_loop_enter("edge_sum", edges, 4, args);
    for (int n = 0; n < edges->size; n++)
      edge_sum((double *)(args[0].data + args[0].map_data[n * 2 + 0] * args[0].size),
               (double *)(args[1].data + args[1].map_data[n * 2 + 1] * args[1].size),
               (double *)(args[2].data + n * args[2].size), (int *)args[3].data);
    op_rt_loop_exit("edge_sum", edges, 4, args, t0);
  }
  double out[3];
  op_fetch_data(y, out);
  ASSERT(out[0] == 6 && out[1] == 12 && out[2] == 24 && count == 6);
  double mid[2] = {0, 0};
  op_fetch_data_idx(y, mid, 1, 2);
  ASSERT(mid[0] == 12 && mid[1] == 24);
}

static int run_unit(void) {
  op_init(0, NULL, 2);
  test_decls();
  test_args();
  test_loop();
  op_exit();
  /* The runtime can start again after op_exit. */
  op_init(0, NULL, 1);
  op_set s = op_decl_set(2, "again");
  ASSERT(s->index == 0);
  op_exit();
  printf("%d checks, %d failed\n", checks, failures);
  return failures != 0;
}

static char *path_in(const char *dir, const char *file) {
  static char buf[4096];
  snprintf(buf, sizeof(buf), "%s/%s", dir, file);
  return buf;
}

static int run_output(const char *dir) {
  op_init(0, NULL, 2);
  op_set cells = op_decl_set(3, "cells");
  op_set nodes = op_decl_set(4, "nodes");
  op_decl_map(cells, nodes, 2, edge_nodes, "pcell");
  double q[6] = {1.5, -0.0, 0.0, -2.25e-10, 123456.789, 1.0 / 3.0};
  float f[3] = {0.1f, -0.0f, 3.0e7f};
  int iv[3] = {-7, 0, 2147483647};
  op_dat dq = op_decl_dat(cells, 2, "double", q, "p_q");
  op_dat df = op_decl_dat(cells, 1, "float", f, "p_f");
  op_dat di = op_decl_dat(cells, 1, "int", iv, "p_i");
  op_print_dat_to_txtfile(dq, path_in(dir, "q.txt"));
  op_print_dat_to_txtfile(df, path_in(dir, "f.txt"));
  op_print_dat_to_txtfile(di, path_in(dir, "i.txt"));
  op_print_dat_to_binfile(dq, path_in(dir, "q.bin"));
  op_diagnostic_output();
  op_arg args[1] = {op_arg_dat(dq, -1, OP_ID, 2, "double", OP_RW)};
  for (int i = 0; i < 3; i++)
    op_rt_loop_exit("touch_q", cells, 1, args, op_rt_loop_enter("touch_q", cells, 1, args));
  op_timing_output();
  op_exit();
  return 0;
}

/* Error cases: each must exit 1 with a message naming the objects. */
static op_set e_nodes, e_edges;
static op_map e_map;
static op_dat e_x, e_y;

static void error_setup(void) {
  op_init(0, NULL, 2);
  e_nodes = op_decl_set(4, "nodes");
  e_edges = op_decl_set(3, "edges");
  e_map = op_decl_map(e_edges, e_nodes, 2, edge_nodes, "pedge");
  e_x = op_decl_dat(e_nodes, 2, "double", NULL, "p_x");
  e_y = op_decl_dat(e_edges, 1, "double", NULL, "p_y");
}

static void run_loop(op_arg a) { op_rt_loop_enter("bad_loop", e_edges, 1, &a); }

static void e_unknown_type(void) { op_decl_dat(e_nodes, 1, "complex", NULL, "p_c"); }
static void e_map_range(void) {
  int bad[6] = {0, 1, 1, 9, 2, 3};
  op_decl_map(e_edges, e_nodes, 2, bad, "pbad");
}
static void e_map_long_range(void) {
  idx_g_t bad[6] = {0, 1, 1, 3, 2, 5000000000LL};
  op_decl_map_long(e_edges, e_nodes, 2, bad, "plong");
}
static void e_map_negative(void) {
  int bad[3] = {0, -1, 2};
  op_decl_map(e_edges, e_nodes, 1, bad, "pneg");
}
static void e_map_null(void) { op_decl_map(e_edges, e_nodes, 2, NULL, "pnull"); }
static void e_map_dim(void) { op_decl_map(e_edges, e_nodes, 0, edge_nodes, "pdim"); }
static void e_set_negative(void) { op_decl_set(-3, "minus"); }
static void e_dat_dim(void) { op_decl_dat(e_nodes, 0, "double", NULL, "p_d0"); }
static void e_dat_null_set(void) { op_decl_dat(NULL, 1, "double", NULL, "p_ns"); }
static void e_fetch_range(void) {
  double buf[8];
  op_fetch_data_idx(e_y, buf, 2, 5);
}
static void e_txt_open(void) { op_print_dat_to_txtfile(e_y, "/nonexistent/dir/y.txt"); }
static void e_const_type(void) {
  double c = 1;
  op_decl_const(1, "real", &c);
}
static void e_gbl_type(void) {
  double g = 0;
  op_arg_gbl(&g, 1, "dbl", OP_INC);
}
static void e_chk_direct(void) { run_loop(op_arg_dat(e_x, -1, OP_ID, 2, "double", OP_READ)); }
static void e_chk_from(void) {
  op_set other = op_decl_set(3, "others");
  op_map m = op_decl_map(other, e_nodes, 1, edge_nodes, "pother");
  run_loop(op_arg_dat(e_x, 0, m, 2, "double", OP_READ));
}
static void e_chk_to(void) { run_loop(op_arg_dat(e_y, 0, e_map, 1, "double", OP_READ)); }
static void e_chk_dim(void) { run_loop(op_arg_dat(e_x, 0, e_map, 3, "double", OP_READ)); }
static void e_chk_type(void) { run_loop(op_arg_dat(e_x, 0, e_map, 2, "float", OP_READ)); }
static void e_chk_idx(void) { run_loop(op_arg_dat(e_x, 2, e_map, 2, "double", OP_READ)); }
static void e_chk_idx_vec(void) { run_loop(op_arg_dat(e_x, -3, e_map, 2, "double", OP_READ)); }
static void e_chk_idx_m1(void) { run_loop(op_arg_dat(e_x, -1, e_map, 2, "double", OP_READ)); }
static void e_chk_idx_id(void) { run_loop(op_arg_dat(e_y, 0, OP_ID, 1, "double", OP_READ)); }
static void e_chk_dat_min(void) { run_loop(op_arg_dat(e_y, -1, OP_ID, 1, "double", OP_MIN)); }
static void e_chk_idx_arg(void) { run_loop(op_arg_idx(2, e_map)); }

static const struct {
  const char *name;
  const char *expect;
  void (*fn)(void);
} errors[] = {
  {"unknown_type", "op_decl_dat: unknown type \"complex\"", e_unknown_type},
  {"map_range", "map \"pbad\" entry 3 (element 1, slot 1) is 9, outside set \"nodes\" of size 4",
   e_map_range},
  {"map_long_range", "op_decl_map_long: map \"plong\" entry 5 (element 2, slot 1) is 5000000000, outside set "
                    "\"nodes\" of size 4", e_map_long_range},
  {"map_negative", "map \"pneg\" entry 1 (element 1, slot 0) is -1", e_map_negative},
  {"map_null", "map \"pnull\" has NULL data for 3 elements of set \"edges\"", e_map_null},
  {"map_dim", "map \"pdim\" has dim 0", e_map_dim},
  {"set_negative", "set \"minus\" has negative size -3", e_set_negative},
  {"dat_dim", "dat \"p_d0\" has dim 0", e_dat_dim},
  {"dat_null_set", "dat \"p_ns\" has a NULL set", e_dat_null_set},
  {"fetch_range", "range 2..5 is not within dat \"p_y\" on set \"edges\" of size 3", e_fetch_range},
  {"txt_open", "cannot open \"/nonexistent/dir/y.txt\" for writing dat \"p_y\"", e_txt_open},
  {"const_type", "op_decl_const: unknown type \"real\"", e_const_type},
  {"gbl_type", "op_arg_gbl: unknown type \"dbl\"", e_gbl_type},
  {"chk_direct", "loop \"bad_loop\" arg 0: direct dat \"p_x\" is on set \"nodes\", "
                 "but the loop runs over set \"edges\"", e_chk_direct},
  {"chk_from", "arg 0: map \"pother\" is from set \"others\", but the loop runs over set \"edges\"",
   e_chk_from},
  {"chk_to", "arg 0: dat \"p_y\" is on set \"edges\", but map \"pedge\" maps to set \"nodes\"",
   e_chk_to},
  {"chk_dim", "arg 0: dim 3 does not match dat \"p_x\" of dim 2", e_chk_dim},
  {"chk_type", "arg 0: type \"float\" does not match dat \"p_x\" of type \"double\"", e_chk_type},
  {"chk_idx", "arg 0: idx 2 is out of range for map \"pedge\" of dim 2", e_chk_idx},
  {"chk_idx_vec", "arg 0: idx -3 is out of range for map \"pedge\" of dim 2", e_chk_idx_vec},
  {"chk_idx_m1", "arg 0: idx -1 is only valid with OP_ID, not with map \"pedge\"", e_chk_idx_m1},
  {"chk_idx_id", "arg 0: idx 0 with OP_ID (must be -1)", e_chk_idx_id},
  {"chk_dat_min", "arg 0: dat \"p_y\" has access 4", e_chk_dat_min},
  {"chk_idx_arg", "arg 0: idx 2 is out of range for map \"pedge\" of dim 2", e_chk_idx_arg},
};
#define NERRORS (int)(sizeof(errors) / sizeof(errors[0]))

static int run_error(const char *name) {
  for (int i = 0; i < NERRORS; i++) {
    if (strcmp(errors[i].name, name) != 0)
      continue;
    error_setup();
    errors[i].fn();
    printf("error case %s did not stop the program\n", name);
    return 0; /* the suite expects exit 1; 0 marks the failure */
  }
  fprintf(stderr, "seqrt_test: unknown error case \"%s\"\n", name);
  return 2;
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "unit") == 0)
    return run_unit();
  if (argc == 3 && strcmp(argv[1], "output") == 0)
    return run_output(argv[2]);
  if (argc == 2 && strcmp(argv[1], "errors") == 0) {
    for (int i = 0; i < NERRORS; i++)
      printf("%s|%s\n", errors[i].name, errors[i].expect);
    return 0;
  }
  if (argc == 3 && strcmp(argv[1], "error") == 0)
    return run_error(argv[2]);
  fprintf(stderr, "usage: seqrt_test unit | output DIR | errors | error NAME\n");
  return 2;
}
