// too_big: a kernel whose code cannot fit a core pair's instruction
// memory (7616 bytes for the application): op2c must refuse it with the
// sizes, and accept it for the enlarged-imem model with --imem enlarged.
#include "op_seq.h"

#define S(k) x = x * 1.000001f + (float)(k) / (x + 3.5f);
#define S4(k) S(k) S(k + 1) S(k + 2) S(k + 3)
#define S16(k) S4(k) S4(k + 4) S4(k + 8) S4(k + 12)
#define S64(k) S16(k) S16(k + 16) S16(k + 32) S16(k + 48)
#define S256(k) S64(k) S64(k + 64) S64(k + 128) S64(k + 192)

inline void big(float *v) {
  float x = *v;
  S256(0) S256(256) S256(512) S256(768)
  *v = x;
}

int main(int argc, char **argv) {
  op_init(argc, argv, 0);
  float v[4] = {1, 2, 3, 4};
  op_set s = op_decl_set(4, "s");
  op_dat p_v = op_decl_dat(s, 1, "float", v, "p_v");
  op_par_loop(big, "big", s, op_arg_dat(p_v, -1, OP_ID, 1, "float", OP_RW));
  op_exit();
  return 0;
}
