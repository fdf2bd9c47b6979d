// dep_mesh.h: what the dep_* programs share (issue 18's loop chains): a
// mesh of NN nodes and NE edges joined by pedge (the program defines NN
// and NE), and the exact check of an int dat against its replay.
#ifndef DEP_MESH_H
#define DEP_MESH_H

static op_set nodes, edges;
static op_map pedge;
static int edge[2 * NE];

// Edge e joins nodes (a e + b) % NN and (c e + d) % NN.
static void decl_mesh(int a, int b, int c, int d) {
  for (int e = 0; e < NE; e++)
    edge[2 * e] = (a * e + b) % NN, edge[2 * e + 1] = (c * e + d) % NN;
  nodes = op_decl_set(NN, "nodes");
  edges = op_decl_set(NE, "edges");
  pedge = op_decl_map(edges, nodes, 2, edge, "pedge");
}

// Fetches the n ints of dat and compares each with want[i].
#define CHECK_DAT_I(dat, want, n)                                              \
  do {                                                                         \
    int got_[n];                                                               \
    op_fetch_data(dat, got_);                                                  \
    for (int i_ = 0; i_ < (n); i_++)                                           \
      if (got_[i_] != (want)[i_]) {                                            \
        check_failures++;                                                      \
        printf("%s:%d: %s[%d] is %d, expected %d\n", __FILE__, __LINE__, #dat, i_, got_[i_], (want)[i_]); \
      }                                                                        \
  } while (0)

#endif
