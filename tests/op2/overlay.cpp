// overlay: op_decl_dat_overlay sees the first elements of a dat as a dat
// on a smaller set, sharing its storage: a loop over the small set writes
// through the overlay and the base dat shows it; the rest is untouched.
// seq only: POETS refuses dats that share storage (tests/tinsel/run.sh).
#include "op_seq.h"

#include "op2_check.h"

inline void triple(double *v) { *v *= 3.0; }
inline void add_one(double *v) { *v += 1.0; }

enum { NALL = 9, NFIRST = 4 };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  double v[NALL];
  for (int i = 0; i < NALL; i++)
    v[i] = i + 0.5;
  op_set all = op_decl_set(NALL, "all");
  op_set first = op_decl_set(NFIRST, "first");
  op_dat p_v = op_decl_dat(all, 1, "double", v, "p_v");
  op_dat p_head = op_decl_dat_overlay(first, p_v);

  op_par_loop(triple, "triple", first, op_arg_dat(p_head, -1, OP_ID, 1, "double", OP_RW));
  op_par_loop(add_one, "add_one", all, op_arg_dat(p_v, -1, OP_ID, 1, "double", OP_RW));

  double got[NALL], head[NFIRST];
  op_fetch_data(p_v, got);
  op_fetch_data(p_head, head);
  for (int i = 0; i < NALL; i++)
    CHECK_EQ_D(got[i], (i < NFIRST ? 3.0 * (i + 0.5) : i + 0.5) + 1.0);
  for (int i = 0; i < NFIRST; i++)
    CHECK_EQ_D(head[i], got[i]);
  op_exit();
  return check_finish("overlay");
}
