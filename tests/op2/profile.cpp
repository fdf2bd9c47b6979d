// profile: OP2's op_profile_* timing tree, as current OP2-Common programs
// time themselves. Sections nest, a section entered again under the same
// parent counts its visits, op_profile_next closes one and opens the next,
// each op_par_loop is a kernel section "<name>/<target>/Direct|Indirect" at
// OP_PROFILE_LEVEL 2 and 3 (3: with its inner sections), op_profile_end
// closes what is open and loops after it are not timed. op_profile_output
// prints the tree (checked here, kept off stdout: its times vary) and writes
// it to OP_PROFILE_JSON_OUTPUT, op_profile_output_json to a file of the
// program's; this program reads them back and checks the names, types,
// nesting and call counts exactly, and that each clock is consistent
// (min <= max <= total, n * min <= total <= n * max), not the times.
// OP_PROFILE_LEVEL comes from the environment (tests/op2/run.sh runs 0, 1,
// 3 and 7 too); unset, the program sets 2.
// Also: op_timers_core, op_timers and op_renumber.
#include "op_seq.h"
#include <op_profile.h>

#include <string>

#include "op2_check.h"

inline void twice(const int *a, int *b) { *b = 2 * *a; }

inline void gather(const int *a, int *s) { *s += *a; }

// One node of the expected tree, with the times left out.
static std::string node(const char *name, int kernel, int n, const std::string &children) {
  return "{\"children\":[" + children + "],\"clock\":{\"max\":T,\"min\":T,\"n\":" + std::to_string(n) +
         ",\"total\":T},\"name\":\"" + name + "\",\"num_ranks\":1,\"type\":" + std::to_string(kernel) + "}";
}

// A loop's kernel section at `level` (target written as @); `reduce`: it has a gbl reduction.
static std::string kernel(int level, const char *name, int n, bool reduce) {
  std::string k = std::string(name);
  std::string in;
  if (level >= 3)
    in = node("MPI Exchanges", 0, n, "") + "," + node("Computation", 0, n, "") + "," + node("MPI Wait", 0, n, "") +
         (reduce ? "," + node("MPI Reduce", 0, n, "") : "");
  return node(k.c_str(), 1, n, in);
}

static std::string expected(int level) {
  std::string twice_d = std::string("twice/@/Direct"), gather_i = std::string("gather/@/Indirect");
  bool k = level >= 2;
  std::string setup = node("setup", 0, 1, k ? kernel(level, twice_d.c_str(), 1, false) : "");
  std::string step = node("step", 0, 3,
                          k ? kernel(level, twice_d.c_str(), 3, false) + "," + kernel(level, gather_i.c_str(), 3, true)
                            : "");
  std::string iterate = node("iterate", 0, 1, step);
  std::string last = k ? "," + kernel(level, twice_d.c_str(), 1, false) : "";
  return node("ProfileTest", 0, 1, setup + "," + iterate + last);
}

// The JSON with each time as T and the target of each kernel name as @;
// each clock checked for consistency on the way.
static std::string normalise(const std::string &js) {
  std::string out;
  size_t i = 0;
  while (i < js.size()) {
    if (js.compare(i, 15, "\"clock\":{\"max\":") == 0) {
      long long mx, mn, n, tot;
      int used = 0;
      if (sscanf(js.c_str() + i, "\"clock\":{\"max\":%lld,\"min\":%lld,\"n\":%lld,\"total\":%lld}%n", &mx, &mn, &n,
                 &tot, &used) == 4 && used > 0) {
        CHECK(mn >= 0 && mn <= mx && mx <= tot && n * mn <= tot && tot <= n * mx);
        out += "\"clock\":{\"max\":T,\"min\":T,\"n\":" + std::to_string(n) + ",\"total\":T}";
        i += (size_t)used;
        continue;
      }
    }
    if (js.compare(i, 5, "/seq/") == 0) {
      out += "/@/";
      i += 5;
      continue;
    }
    if (js.compare(i, 8, "/tinsel/") == 0) {
      out += "/@/";
      i += 8;
      continue;
    }
    out += js[i++];
  }
  return out;
}

enum { N = 8 };

int main(int argc, char **argv) {
  op_init(argc, argv, 1);
  const char *lv = getenv("OP_PROFILE_LEVEL");
  if (!lv) {
    setenv("OP_PROFILE_LEVEL", "2", 1);
    lv = "2";
  }
  int level = atoi(lv);
  if (level < 0 || level > 3)
    level = 1; // an unsupported value: a warning, and the default
  setenv("OP_PROFILE_JSON_OUTPUT", "profile.json", 1);
  remove("profile.json");
  remove("profile2.json");

  int a0[N], pairs[2 * N];
  for (int i = 0; i < N; i++) {
    a0[i] = i + 1;
    pairs[2 * i] = i;
    pairs[2 * i + 1] = (i + 3) % N;
  }
  op_set nodes = op_decl_set(N, "nodes");
  op_set edges = op_decl_set(N, "edges");
  op_map pe = op_decl_map(edges, nodes, 2, pairs, "pe");
  op_dat p_a = op_decl_dat(nodes, 1, "int", a0, "p_a");
  op_dat p_b = op_decl_dat(nodes, 1, "int", NULL, "p_b");
  op_renumber(pe); // a no-op on one node, as in OP2's single-node libraries

  double cpu0, wall0, cpu1, wall1;
  op_timers_core(&cpu0, &wall0);
  op_profile_start("ProfileTest");
  op_profile_enter("setup");
  op_par_loop(twice, "twice", nodes, op_arg_dat(p_a, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(p_b, -1, OP_ID, 1, "int", OP_WRITE));
  op_profile_next("iterate");
  int sum = 0;
  for (int it = 0; it < 3; it++) {
    op_profile_enter("step");
    op_par_loop(twice, "twice", nodes, op_arg_dat(p_a, -1, OP_ID, 1, "int", OP_READ),
                op_arg_dat(p_b, -1, OP_ID, 1, "int", OP_WRITE));
    op_par_loop(gather, "gather", edges, op_arg_dat(p_b, 1, pe, 1, "int", OP_READ),
                op_arg_gbl(&sum, 1, "int", OP_INC));
    op_profile_exit();
  }
  op_profile_exit(); // iterate
  op_par_loop(twice, "twice", nodes, op_arg_dat(p_a, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(p_b, -1, OP_ID, 1, "int", OP_WRITE));
  op_profile_end();
  // After op_profile_end: run, but not in the tree.
  op_par_loop(gather, "gather", edges, op_arg_dat(p_b, 0, pe, 1, "int", OP_READ),
              op_arg_gbl(&sum, 1, "int", OP_INC));
  op_timers(&cpu1, &wall1);
  CHECK(wall1 >= wall0 && cpu1 >= cpu0);
  CHECK_EQ_I(sum, 4 * 2 * (N * (N + 1) / 2));
  std::string out = captured(op_profile_output);
  if (level != 0) {
    // The summary: the tree of sections first, the kernel tables at 2 and 3.
    CHECK(out.rfind("ProfileTest *1 total: ", 0) == 0);
    CHECK(out.find("\n        step *3 total: ") != std::string::npos);
    CHECK(out.find("\nWriting timing JSON to: profile.json\n") != std::string::npos);
    bool table = out.find("\nProfileTest/iterate/step ") != std::string::npos;
    CHECK(table == (level >= 2));
    size_t row = out.find("\n    gather/");
    CHECK((row != std::string::npos) == (level >= 2));
    if (row != std::string::npos) {
      char kname[64];
      long long n = 0;
      CHECK(sscanf(out.c_str() + row + 1, "%63s %lld", kname, &n) == 2);
      CHECK_EQ_I(n, 3);
    }
  } else {
    CHECK(out.empty());
  }

  // op_profile_output_json: the same tree to a file named by the program.
  std::string out2 = captured([] { op_profile_output_json("profile2.json"); });
  CHECK((level == 0) == out2.empty());
  FILE *f = fopen("profile.json", "r");
  if (level == 0) {
    CHECK(f == NULL); // level 0: profiling off, no file
  } else {
    CHECK(f != NULL);
    std::string js;
    if (f) {
      int c;
      while ((c = fgetc(f)) != EOF)
        js += (char)c;
    }
    std::string again;
    FILE *f2 = fopen("profile2.json", "r");
    CHECK(f2 != NULL);
    if (f2) {
      int c;
      while ((c = fgetc(f2)) != EOF)
        again += (char)c;
      fclose(f2);
    }
    CHECK(again == js);
    std::string got = normalise(js), want = expected(level);
    if (got != want) {
      check_failures++;
      printf("profile.json (times as T, targets as @) is\n%s\nexpected\n%s\n", got.c_str(), want.c_str());
    }
  }
  if (f)
    fclose(f);
  op_exit();
  return check_finish("profile");
}
