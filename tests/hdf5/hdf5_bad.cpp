/*
 * hdf5_bad.cpp: op_*_hdf5 on files that do not match the declarations.
 * Each case must stop with one "op2 error:" line naming the call, the file,
 * the dataset and what is wrong, or (what OP2 lets through: data of another
 * type, a missing map, dat or const) carry on after a warning that says so
 * (tests/hdf5/run.sh, golden bad.txt).
 *
 *   hdf5_bad CASE FILE   (FILE: a meshgen-made airfoil .h5, or another file)
 */
#include <stdio.h>
#include <string.h>

#include "op_seq.h"
#include "op_hdf5.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: hdf5_bad set|noset|map|dattype|datclass|const|group|infer|missing FILE\n");
    return 2;
  }
  op_init(1, argv, 1);
  const char *c = argv[1], *file = argv[2];
  if (strcmp(c, "noset") == 0) {
    op_set s = op_decl_set_hdf5(file, "cels");
    (void)s;
  }
  if (strcmp(c, "group") == 0) {
    op_set g = op_decl_set_hdf5(file, "result");
    (void)g;
  }
  op_set nodes = op_decl_set_hdf5(file, "nodes");
  op_set edges = op_decl_set_hdf5(file, "edges");
  op_set bedges = op_decl_set_hdf5(file, "bedges");
  if (strcmp(c, "infer") == 0) {
    op_set e2 = op_decl_set_hdf5_infer_size(file, "edges2", "pedge");
    printf("infer: edges2 has %lld elements, edges %lld\n", op_get_size(e2), op_get_size(edges));
  }
  if (strcmp(c, "map") == 0) {
    op_map pedge = op_decl_map_hdf5(edges, nodes, 3, file, "pedge");
    (void)pedge;
  }
  if (strcmp(c, "dattype") == 0) {
    op_dat p_x = op_decl_dat_hdf5(nodes, 2, "float", file, "p_x");
    (void)p_x;
  }
  if (strcmp(c, "datclass") == 0) {
    op_dat p_bound = op_decl_dat_hdf5(bedges, 1, "double", file, "p_bound");
    (void)p_bound;
  }
  if (strcmp(c, "missing") == 0) { // OP2 lets a program probe: NULL, and the const kept
    op_map m_test = op_decl_map_hdf5(edges, nodes, 2, file, "m_test");
    op_dat p_test = op_decl_dat_hdf5(nodes, 2, "double", file, "p_test");
    double kept = 7;
    op_get_const_hdf5("c_test", 1, "double", (char *)&kept, file);
    printf("missing: map %s, dat %s, const %g\n", m_test ? "declared" : "NULL", p_test ? "declared" : "NULL", kept);
  }
  if (strcmp(c, "dattype") == 0 || strcmp(c, "datclass") == 0)
    printf("%s: read\n", c);
  if (strcmp(c, "const") == 0) {
    double qinf[3];
    op_get_const_hdf5("qinf", 3, "double", (char *)qinf, file);
  }
  op_exit();
  return 0;
}
