// arg_info: op_arg_info (argmin/argmax) with double, float and int values,
// direct and indirect loops, info of dim 1 and 2, an OP_INC global in the
// same loop, and many equal extremes: OP2's sequential order gives the
// info of the first element (the smallest index) that reaches the extreme
// with a strict comparison, so on POETS, where the elements' ends meet in
// any order, the smallest must win every tie. An element that does not
// beat the host's value leaves the host's info.
#include "op_seq.h"

#include "op2_check.h"

// Both extremes and where they are, and the sum, as airfoil's update keeps
// its rms, max error and errloc.
inline void extremes_d(const double *v, double *sum, double *mn, double *mx, const int *idx, int *at_min,
                       int *at_max) {
  *sum += *v;
  if (*v < *mn) {
    *mn = *v;
    *at_min = *idx;
  }
  if (*v > *mx) {
    *mx = *v;
    *at_max = *idx;
  }
}

// Through a map: the edge and the cell it reads (info of dim 2).
inline void argmin_f(const float *v, const int *edge, const int *cell, float *mn, int *where) {
  if (*v < *mn) {
    *mn = *v;
    where[0] = *edge;
    where[1] = *cell;
  }
}

// The info before the global it goes with (ref 3), a double pair.
inline void argmax_i(const int *v, const double *xy, double *pos, int *mx) {
  if (*v > *mx) {
    *mx = *v;
    pos[0] = xy[0];
    pos[1] = xy[1];
  }
}

enum { NC = 60, NE = 24 };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  double dv[NC], xy[2 * NC];
  float fv[NC];
  int iv[NC], map[NE];
  for (int i = 0; i < NC; i++) {
    // The extremes repeat: 9.5 at every 5th cell from 3, -7 at every 7th from 4.
    iv[i] = i % 5 == 3 ? 38 : i % 7 == 4 ? -28 : (i * 37) % 51 - 25;
    dv[i] = iv[i] * 0.25;
    fv[i] = (float)(iv[i] * 0.5);
    xy[2 * i] = i * 0.5;
    xy[2 * i + 1] = -i;
  }
  for (int e = 0; e < NE; e++)
    map[e] = (11 * e + 5) % NC; // edges read cells, several of them a minimum
  op_set cells = op_decl_set(NC, "cells");
  op_set edges = op_decl_set(NE, "edges");
  op_map pick = op_decl_map(edges, cells, 1, map, "pick");
  op_dat p_d = op_decl_dat(cells, 1, "double", dv, "p_d");
  op_dat p_f = op_decl_dat(cells, 1, "float", fv, "p_f");
  op_dat p_i = op_decl_dat(cells, 1, "int", iv, "p_i");
  op_dat p_xy = op_decl_dat(cells, 2, "double", xy, "p_xy");

  // What OP2's sequential order gives, element by element.
  double esum = 0, emn = 0, emx = 0;
  int eat_min = -1, eat_max = -1;
  for (int i = 0; i < NC; i++)
    extremes_d(&dv[i], &esum, &emn, &emx, &i, &eat_min, &eat_max);
  CHECK_EQ_I(eat_min, 4);  // ties: the first of the cells 4, 11, 18, ...
  CHECK_EQ_I(eat_max, 3);  // and of 3, 8, 13, ...

  // Direct, double, both extremes and a sum in one loop.
  for (int rep = 0; rep < 2; rep++) {
    double sum = 0, mn = 0, mx = 0;
    int at_min = -1, at_max = -1;
    op_par_loop(extremes_d, "extremes_d", cells, op_arg_dat(p_d, -1, OP_ID, 1, "double", OP_READ),
                op_arg_gbl(&sum, 1, "double", OP_INC), op_arg_gbl(&mn, 1, "double", OP_MIN),
                op_arg_gbl(&mx, 1, "double", OP_MAX), op_arg_idx(-1, OP_ID), op_arg_info(&at_min, 1, "int", 2),
                op_arg_info(&at_max, 1, "int", 3));
    printf("extremes_d: sum %g min %g at %d, max %g at %d\n", sum, mn, at_min, mx, at_max);
    CHECK_EQ_D(sum, esum); // quarter-integers: exact in any order
    CHECK_EQ_D(mn, emn);
    CHECK_EQ_D(mx, emx);
    CHECK_EQ_I(at_min, eat_min);
    CHECK_EQ_I(at_max, eat_max);
  }

  // Nobody beats the host's values: its infos stay.
  {
    double sum = 1, mn = -100, mx = 100;
    int at_min = 77, at_max = 88;
    op_par_loop(extremes_d, "extremes_d", cells, op_arg_dat(p_d, -1, OP_ID, 1, "double", OP_READ),
                op_arg_gbl(&sum, 1, "double", OP_INC), op_arg_gbl(&mn, 1, "double", OP_MIN),
                op_arg_gbl(&mx, 1, "double", OP_MAX), op_arg_idx(-1, OP_ID), op_arg_info(&at_min, 1, "int", 2),
                op_arg_info(&at_max, 1, "int", 3));
    printf("extremes_d from outside the range: min %g at %d, max %g at %d\n", mn, at_min, mx, at_max);
    CHECK_EQ_D(sum, 1 + esum);
    CHECK_EQ_D(mn, -100);
    CHECK_EQ_D(mx, 100);
    CHECK_EQ_I(at_min, 77);
    CHECK_EQ_I(at_max, 88);
  }

  // Indirect, float, info of dim 2.
  {
    float mn = 1e30f, emnf = 1e30f;
    int where[2] = {-1, -1}, ewhere[2] = {-1, -1};
    for (int e = 0; e < NE; e++)
      argmin_f(&fv[map[e]], &e, &map[e], &emnf, ewhere);
    op_par_loop(argmin_f, "argmin_f", edges, op_arg_dat(p_f, 0, pick, 1, "float", OP_READ), op_arg_idx(-1, OP_ID),
                op_arg_idx(0, pick), op_arg_gbl(&mn, 1, "float", OP_MIN), op_arg_info(where, 2, "int", 3));
    printf("argmin_f: min %g at edge %d (cell %d)\n", mn, where[0], where[1]);
    CHECK_EQ_D(mn, emnf);
    CHECK_EQ_I(where[0], ewhere[0]);
    CHECK_EQ_I(where[1], ewhere[1]);
    int ties = 0;
    for (int e = 0; e < NE; e++)
      ties += fv[map[e]] == emnf;
    CHECK(ties >= 2); // the edges reaching the minimum: only the first may win
  }

  // Direct, int, the info (a double pair) before its global.
  {
    int mx = -1000, emxi = -1000;
    double pos[2] = {-1, -1}, epos[2] = {-1, -1};
    for (int i = 0; i < NC; i++)
      argmax_i(&iv[i], &xy[2 * i], epos, &emxi);
    op_par_loop(argmax_i, "argmax_i", cells, op_arg_dat(p_i, -1, OP_ID, 1, "int", OP_READ),
                op_arg_dat(p_xy, -1, OP_ID, 2, "double", OP_READ), op_arg_info(pos, 2, "double", 3),
                op_arg_gbl(&mx, 1, "int", OP_MAX));
    printf("argmax_i: max %d at (%g, %g)\n", mx, pos[0], pos[1]);
    CHECK_EQ_I(mx, emxi);
    CHECK_EQ_D(pos[0], epos[0]);
    CHECK_EQ_D(pos[1], epos[1]);
    CHECK_EQ_D(pos[0], 1.5); // cell 3
  }
  op_exit();
  return check_finish("arg_info");
}
