// init_options: OP2's op_init options in argv and the host-side calls
// around loops. OP_MAPS_BASE_INDEX=1 makes the maps declared after it
// 1-based (the runtime's copy is made 0-based, the program's buffer is
// untouched); OP2's tuning options are accepted and change nothing here.
// Also op_print_dat_to_binfile (OP2's layout: set size and dim as two ints,
// then the data), op_timings_to_csv, op_timing_output, op_partition,
// op_renumber and op_fetch_data_idx.
#include "op_seq.h"

#include <string>

#include "op2_check.h"

inline void pick(const int *a, const int *b, int *s) { *s = *a * 10 + *b; }

enum { NN = 5, NE = 4 };

int main(int, char **) {
  char a0[] = "init_options", a1[] = "OP_BLOCK_SIZE=64", a2[] = "OP_PART_SIZE=128", a3[] = "OP_NO_REALLOC",
       a4[] = "OP_MAPS_BASE_INDEX=1", a5[] = "OP_CACHE_LINE_SIZE=64", a6[] = "OP_AUTO_SOA",
       a7[] = "OP_HYBRID_BALANCE=0.5";
  char *args[] = {a0, a1, a2, a3, a4, a5, a6, a7, NULL};
  op_init(8, args, 1);

  int val[NN], e2n[2 * NE];
  for (int i = 0; i < NN; i++)
    val[i] = i;
  for (int e = 0; e < NE; e++) { // 1-based: edge e joins nodes e and e+1
    e2n[2 * e] = e + 1;
    e2n[2 * e + 1] = e + 2;
  }
  op_set nodes = op_decl_set(NN, "nodes");
  op_set edges = op_decl_set(NE, "edges");
  op_map pe = op_decl_map(edges, nodes, 2, e2n, "pe");
  op_dat p_v = op_decl_dat(nodes, 1, "int", val, "p_v");
  op_dat p_s = op_decl_dat(edges, 1, "int", NULL, "p_s");
  op_partition("PTSCOTCH", "KWAY", edges, pe, p_v); // one node: nothing to do
  op_renumber(pe);
  CHECK_EQ_I(e2n[0], 1); // the program's buffer is its own

  op_par_loop(pick, "pick", edges, op_arg_dat(p_v, 0, pe, 1, "int", OP_READ),
              op_arg_dat(p_v, 1, pe, 1, "int", OP_READ), op_arg_dat(p_s, -1, OP_ID, 1, "int", OP_WRITE));
  int s[NE];
  op_fetch_data(p_s, s);
  for (int e = 0; e < NE; e++)
    CHECK_EQ_I(s[e], e * 10 + e + 1);
  int mid[2] = {-1, -1};
  op_fetch_data_idx(p_s, mid, 1, 2);
  CHECK_EQ_I(mid[0], 12);
  CHECK_EQ_I(mid[1], 23);

  op_print_dat_to_binfile(p_s, "init_options_s.bin");
  FILE *f = fopen("init_options_s.bin", "rb");
  int head[2] = {0, 0}, back[NE] = {0};
  CHECK(f != NULL);
  if (f) {
    CHECK(fread(head, sizeof(int), 2, f) == 2);
    CHECK(fread(back, sizeof(int), NE, f) == NE);
    CHECK(fgetc(f) == EOF);
    fclose(f);
  }
  CHECK_EQ_I(head[0], NE);
  CHECK_EQ_I(head[1], 1);
  for (int e = 0; e < NE; e++)
    CHECK_EQ_I(back[e], s[e]);

  std::string table = captured(op_timing_output);
  // OP2's table: count; plan time; MPI time(std); time(std); GB/s; ; name
  CHECK(table.find("\n  count   plan time ") != std::string::npos);
  CHECK(table.find("\n      1;    0.0000;    0.0000(  0.0000);  ") != std::string::npos);
  CHECK(table.find(";         ;   pick \n") != std::string::npos);
  op_timings_to_csv("init_options.csv");
  f = fopen("init_options.csv", "r");
  CHECK(f != NULL);
  if (f) {
    char line[256];
    CHECK(fgets(line, sizeof(line), f) != NULL);
    CHECK(std::string(line) ==
          "rank,thread,nranks,nthreads,count,total time,plan time,mpi time,GB used,GB total,kernel name\n");
    CHECK(fgets(line, sizeof(line), f) != NULL);
    std::string row(line);
    CHECK(row.rfind("0,0,1,1,1,", 0) == 0);
    CHECK(row.size() > 6 && row.compare(row.size() - 6, 6, ",pick\n") == 0);
    fclose(f);
  }
  op_exit();
  return check_finish("init_options");
}
