// merged_writes: an element's indirect writes share a message (op2c's
// protocol, write groups): both cells' increments of an edge in one
// message, as in airfoil's res_calc, landing on an edge whose two slots
// are the same cell twice; two dats in one message; writes that do not fit
// 56 bytes split into two messages, not in argument order; an RW through an
// injective map and an INC of another set in one message; and what keeps a message of its own: a
// vector arg and an op_opt_arg (off, then on). Values are small integers,
// so every sum is exact in any order of arrival.
#include "op_seq.h"

#include "op2_check.h"

inline void pair(const double *w, double *r0, double *r1) {
  r0[0] += w[0];
  r1[0] -= 2 * w[0];
}
inline void spread(const double *w, double *big0, double *big1, double *r0, double *r1, float *s1, double **v) {
  for (int k = 0; k < 4; k++) {
    big0[k] += w[0] + k;
    big1[k] += 10 * w[0] - k;
  }
  r0[0] += 3 * w[0];
  r1[0] += 5;
  for (int k = 0; k < 3; k++)
    s1[k] += (float)(w[0] * (k + 1));
  v[0][0] += 1;
  v[1][0] += 7;
}
inline void own(const double *w, double *t, double *r0) {
  t[0] = 2 * t[0] + w[0];
  r0[0] += 1;
}
inline void maybe(const double *w, double *r0, double *r1) {
  r0[0] += w[0];
  if (r1)
    r1[0] += 100;
}

// A chain of cells (edge i joins cells i and i + 1), and a last edge whose
// two slots are both cell 0. Edge i owns tag i (the map etag is injective).
enum { NCELL = 6, NEDGE = NCELL };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int ec[2 * NEDGE], et[NEDGE];
  double w[NEDGE], tag[NEDGE];
  for (int i = 0; i < NEDGE - 1; i++)
    ec[2 * i] = i, ec[2 * i + 1] = i + 1;
  ec[2 * (NEDGE - 1)] = ec[2 * (NEDGE - 1) + 1] = 0;
  for (int i = 0; i < NEDGE; i++) {
    w[i] = i + 1;
    et[i] = NEDGE - 1 - i;
    tag[i] = 100 + i;
  }
  op_set cells = op_decl_set(NCELL, "cells");
  op_set edges = op_decl_set(NEDGE, "edges");
  op_set tags = op_decl_set(NEDGE, "tags");
  op_map pecell = op_decl_map(edges, cells, 2, ec, "pecell");
  op_map etag = op_decl_map(edges, tags, 1, et, "etag");
  op_dat p_w = op_decl_dat(edges, 1, "double", w, "p_w");
  op_dat p_r = op_decl_dat(cells, 1, "double", NULL, "p_r");
  op_dat p_big = op_decl_dat(cells, 4, "double", NULL, "p_big");
  op_dat p_s = op_decl_dat(cells, 3, "float", NULL, "p_s");
  op_dat p_v = op_decl_dat(cells, 1, "double", NULL, "p_v");
  op_dat p_t = op_decl_dat(tags, 1, "double", tag, "p_t");

  op_par_loop(pair, "pair", edges,
              op_arg_dat(p_w, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(p_r, 0, pecell, 1, "double", OP_INC),
              op_arg_dat(p_r, 1, pecell, 1, "double", OP_INC));
  op_par_loop(spread, "spread", edges,
              op_arg_dat(p_w, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(p_big, 0, pecell, 4, "double", OP_INC),
              op_arg_dat(p_big, 1, pecell, 4, "double", OP_INC),
              op_arg_dat(p_r, 0, pecell, 1, "double", OP_INC),
              op_arg_dat(p_r, 1, pecell, 1, "double", OP_INC),
              op_arg_dat(p_s, 1, pecell, 3, "float", OP_INC),
              op_arg_dat(p_v, -2, pecell, 1, "double", OP_INC));
  op_par_loop(own, "own", edges,
              op_arg_dat(p_w, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(p_t, 0, etag, 1, "double", OP_RW),
              op_arg_dat(p_r, 0, pecell, 1, "double", OP_INC));
  for (int flag = 0; flag <= 1; flag++)
    op_par_loop(maybe, "maybe", edges,
                op_arg_dat(p_w, -1, OP_ID, 1, "double", OP_READ),
                op_arg_dat(p_r, 0, pecell, 1, "double", OP_INC),
                op_opt_arg_dat(flag, p_r, 1, pecell, 1, "double", OP_INC));

  // The same on the host, in order.
  double r[NCELL] = {0}, big[4 * NCELL] = {0}, v[NCELL] = {0}, t[NEDGE];
  float s[3 * NCELL] = {0};
  for (int i = 0; i < NEDGE; i++)
    t[i] = tag[i];
  for (int i = 0; i < NEDGE; i++)
    r[ec[2 * i]] += w[i], r[ec[2 * i + 1]] -= 2 * w[i];
  for (int i = 0; i < NEDGE; i++) {
    int a = ec[2 * i], b = ec[2 * i + 1];
    for (int k = 0; k < 4; k++)
      big[4 * a + k] += w[i] + k, big[4 * b + k] += 10 * w[i] - k;
    r[a] += 3 * w[i], r[b] += 5;
    for (int k = 0; k < 3; k++)
      s[3 * b + k] += (float)(w[i] * (k + 1));
    v[a] += 1, v[b] += 7;
  }
  for (int i = 0; i < NEDGE; i++)
    t[et[i]] = 2 * t[et[i]] + w[i], r[ec[2 * i]] += 1;
  for (int flag = 0; flag <= 1; flag++)
    for (int i = 0; i < NEDGE; i++)
      r[ec[2 * i]] += w[i], r[ec[2 * i + 1]] += flag ? 100 : 0;

  double got_r[NCELL], got_big[4 * NCELL], got_v[NCELL], got_t[NEDGE];
  float got_s[3 * NCELL];
  op_fetch_data(p_r, got_r);
  op_fetch_data(p_big, got_big);
  op_fetch_data(p_s, got_s);
  op_fetch_data(p_v, got_v);
  op_fetch_data(p_t, got_t);
  for (int c = 0; c < NCELL; c++) {
    CHECK_EQ_D(got_r[c], r[c]);
    CHECK_EQ_D(got_v[c], v[c]);
  }
  for (int i = 0; i < 4 * NCELL; i++)
    CHECK_EQ_D(got_big[i], big[i]);
  for (int i = 0; i < 3 * NCELL; i++)
    CHECK_EQ_D(got_s[i], s[i]);
  for (int i = 0; i < NEDGE; i++)
    CHECK_EQ_D(got_t[i], t[i]);
  op_exit();
  return check_finish("merged_writes");
}
