/*
 * tg_demo.c: checkpoint and resume of a task graph (issue 20 item 1), on
 * the worked example of docs/taskgraph.md (tg_example.h):
 *
 *   tg_demo --n N [--cap C] [--seed S]                      run to the end
 *   tg_demo --n N [--cap C] [--seed S] --stop-after F --checkpoint FILE
 *        run F firings, write every node's run and computation state and
 *        every edge's items to FILE, and exit (as if the machine stopped)
 *   tg_demo --n N [--cap C] [--seed S] --resume FILE
 *        build the same graph in a new process, restore FILE, run to the end
 *
 * Each run that reaches the end prints the total, the oracle's (computed
 * directly) and PASSED or FAILED; exit 0, 1 (FAILED or a graph error) or 2
 * (bad arguments).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tg.h"
#include "tg_example.h"

static uint64_t number(const char *opt, const char *s, uint64_t min, uint64_t max) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *end || s[0] == '-' || v < min || v > max) {
    fprintf(stderr, "tg_demo: %s %s: a number from %llu to %llu\n", opt, s, (unsigned long long)min,
            (unsigned long long)max);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  uint64_t n = 1000, stop = 0, seed = 0;
  uint32_t cap = 2;
  const char *ckpt = NULL, *resume = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v || (strcmp(a, "--n") && strcmp(a, "--cap") && strcmp(a, "--seed") && strcmp(a, "--stop-after") &&
               strcmp(a, "--checkpoint") && strcmp(a, "--resume"))) {
      fprintf(stderr, "tg_demo: %s: %s (see the top of taskgraph/tg_demo.c)\n", a, v ? "unknown option" : "needs a value");
      return 2;
    }
    if (!strcmp(a, "--n")) n = number(a, v, 1, 100000);
    else if (!strcmp(a, "--cap")) cap = (uint32_t)number(a, v, 1, TG_MAX_CAPACITY);
    else if (!strcmp(a, "--seed")) seed = number(a, v, 0, UINT64_MAX);
    else if (!strcmp(a, "--stop-after")) stop = number(a, v, 1, UINT64_MAX);
    else if (!strcmp(a, "--checkpoint")) ckpt = v;
    else resume = v;
    i++;
  }
  if (!stop != !ckpt || (resume && ckpt)) {
    fprintf(stderr, "tg_demo: --stop-after and --checkpoint go together, and not with --resume\n");
    return 2;
  }
  uint32_t result = 0;
  tg_graph *g = tg_example((uint32_t)n, cap, &result);
  if (!g) {
    fprintf(stderr, "tg_demo: cannot build the example graph\n");
    return 1;
  }
  tg_set_seed(g, seed);
  if (resume) {
    if (tg_restore(g, resume) != 0) {
      fprintf(stderr, "tg_demo: %s\n", tg_error(g));
      tg_graph_free(g);
      return 1;
    }
    printf("tg_demo: resumed from %s after %llu firings (gen %d, steps %d, sum %d: run states)\n", resume,
           (unsigned long long)tg_firings(g), (int)tg_node_run_state(g, TGX_GEN), (int)tg_node_run_state(g, TGX_STEPS),
           (int)tg_node_run_state(g, TGX_SUM));
  }
  int r = tg_run(g, ckpt ? stop : UINT64_MAX);
  if (r < 0) {
    fprintf(stderr, "tg_demo: %s\n", tg_error(g));
    tg_graph_free(g);
    return 1;
  }
  if (ckpt) {
    if (tg_checkpoint(g, ckpt) != 0) {
      fprintf(stderr, "tg_demo: %s\n", tg_error(g));
      tg_graph_free(g);
      return 1;
    }
    const tgx_sum_state *s = tg_node_state(g, TGX_SUM);
    printf("tg_demo: stopped after %llu firings (%s), sum has folded %llu of %llu counts; checkpoint %s\n",
           (unsigned long long)tg_firings(g), r ? "work left" : "done", (unsigned long long)s->count,
           (unsigned long long)n, ckpt);
    tg_graph_free(g);
    return 0;
  }
  const tgx_sum_state *s = tg_node_state(g, TGX_SUM);
  uint32_t want = tg_example_expect((uint32_t)n);
  printf("tg_demo: n %llu: %llu firings, total %llu (sum's state %llu), oracle %llu\n", (unsigned long long)n,
         (unsigned long long)tg_firings(g), (unsigned long long)result, (unsigned long long)s->total,
         (unsigned long long)want);
  int ok = s->total == want && (result == want || resume);
  printf("%s\n", ok ? "PASSED" : "FAILED");
  tg_graph_free(g);
  return !ok;
}
