// A set and a dat not assigned to variables: the back ends would name them
// set_(null) and dat_(null).
inline void k(double *a) { *a = 1; }
op_set s;
void run(double *x) {
  s = op_decl_set(2, "s");
  op_decl_set(3, "t");
  op_decl_dat(s, 1, "double", x, "anon");
  op_dat d = op_decl_dat(s, 1, "double", x, "d");
  op_par_loop(k, "k", s, op_arg_dat(d, -1, OP_ID, 1, "double", OP_RW));
}
