// device_print: every device prints (issue 13). An indirect loop over 115
// edges prints one printf line per edge with the indices of its two nodes;
// a direct loop over the 66 nodes prints with puts and putchar; the host
// prints a line after each loop. tests/op2/print/run.sh counts the lines on
// every engine and configuration, checks them against seq's and checks that
// each loop's device lines come before the host's line after it.
#include <stdio.h>

#include "op_seq.h"

inline void edge_say(const int *e, const int *a, const int *b) {
  printf("edge %d joins %d and %d\n", *e, *a, *b);
}

inline void node_say(const int *n) {
  char line[] = "node ...";
  line[5] = (char)('0' + *n / 100);
  line[6] = (char)('0' + *n / 10 % 10);
  line[7] = (char)('0' + *n % 10);
  puts(line);
  putchar('.');
  putchar('\n');
}

enum { NX = 11, NY = 6, NODES = NX * NY, EDGES = (NX - 1) * NY + NX * (NY - 1) };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  static int ids[NODES], en[2 * EDGES];
  int k = 0;
  for (int y = 0; y < NY; y++)
    for (int x = 0; x < NX; x++) {
      ids[y * NX + x] = y * NX + x;
      if (x + 1 < NX) en[2 * k] = y * NX + x, en[2 * k + 1] = y * NX + x + 1, k++;
      if (y + 1 < NY) en[2 * k] = y * NX + x, en[2 * k + 1] = (y + 1) * NX + x, k++;
    }
  op_set nodes = op_decl_set(NODES, "nodes");
  op_set edges = op_decl_set(EDGES, "edges");
  op_map pedge = op_decl_map(edges, nodes, 2, en, "pedge");
  op_dat p_id = op_decl_dat(nodes, 1, "int", ids, "p_id");
  op_par_loop(edge_say, "edge_say", edges, op_arg_idx(-1, OP_ID),
              op_arg_dat(p_id, 0, pedge, 1, "int", OP_READ),
              op_arg_dat(p_id, 1, pedge, 1, "int", OP_READ));
  printf("host: after edge_say\n");
  op_par_loop(node_say, "node_say", nodes, op_arg_dat(p_id, -1, OP_ID, 1, "int", OP_READ));
  printf("host: after node_say\n");
  op_exit();
  return 0;
}
