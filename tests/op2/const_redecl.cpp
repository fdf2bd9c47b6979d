// const_redecl: a program sets a constant, runs loops, then sets it again
// with op_decl_const: the loops after see the new value, as in OP2 (a
// solver constant changed between phases). Also op_decl_const2, the older
// call with the constant's name first, for an array constant redeclared
// through either call.
#include "op_seq.h"

#include "op2_check.h"

int alpha;        // op_decl_const
float coef[2];    // op_decl_const2, then op_decl_const

inline void apply(const int *x, int *y, float *z) {
  *y = alpha * *x;
  *z = coef[0] * (float)*x + coef[1];
}

enum { N = 6 };

static op_set cells;
static op_dat p_x, p_y, p_z;

// One loop and the check of what it wrote (defined after main: op2c reads
// the loop after the declarations).
static void run(int want_alpha, float c0, float c1);

int main(int argc, char **argv) {
  op_init(argc, argv, 1);
  int x[N];
  for (int i = 0; i < N; i++)
    x[i] = i + 1;
  cells = op_decl_set(N, "cells");
  p_x = op_decl_dat(cells, 1, "int", x, "p_x");
  p_y = op_decl_dat(cells, 1, "int", NULL, "p_y");
  p_z = op_decl_dat(cells, 1, "float", NULL, "p_z");

  alpha = 3;
  coef[0] = 0.5f;
  coef[1] = 1.0f;
  op_decl_const(1, "int", &alpha);
  op_decl_const2("coef", 2, "float", coef);
  run(3, 0.5f, 1.0f);
  run(3, 0.5f, 1.0f);

  alpha = -7; // a new value, declared again: the next loops see it
  op_decl_const(1, "int", &alpha);
  run(-7, 0.5f, 1.0f);

  coef[0] = 2.0f;
  coef[1] = -0.25f;
  op_decl_const(2, "float", coef);
  run(-7, 2.0f, -0.25f);

  alpha = 11;
  coef[1] = 4.0f;
  op_decl_const2("alpha", 1, "int", &alpha);
  op_decl_const2("coef", 2, "float", coef);
  run(11, 2.0f, 4.0f);
  op_exit();
  return check_finish("const_redecl");
}

static void run(int want_alpha, float c0, float c1) {
  op_par_loop(apply, "apply", cells, op_arg_dat(p_x, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(p_y, -1, OP_ID, 1, "int", OP_WRITE), op_arg_dat(p_z, -1, OP_ID, 1, "float", OP_WRITE));
  int y[N];
  float z[N];
  op_fetch_data(p_y, y);
  op_fetch_data(p_z, z);
  for (int i = 0; i < N; i++) {
    CHECK_EQ_I(y[i], want_alpha * (i + 1));
    CHECK_EQ_D(z[i], c0 * (float)(i + 1) + c1);
  }
}
