/* tsim.c: the dispatcher: check the command line, then run the model binary
   of the configuration (tsim-core, tsim-tile, tsim-board; tsim-NAME-trace
   with --trace) (box: tsim-board) from the same directory with the same arguments;
   with --engine fast, the fast engine's binary tsim-fast-NAME (sim/fast/). */
#define _POSIX_C_SOURCE 200809L
#include "tsim_args.h"
#include "tsim_box.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Without --engine, the environment's TSIM_ENGINE (cycle or fast) chooses:
   test suites and programs that spawn tsim run on the fast engine unchanged. */
static int engine_from_env(int argc, char **argv, TsimArgs *a) {
  const char *e = getenv("TSIM_ENGINE");
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--engine")) return 0;
  if (!e || !*e) return 0;
  if (strcmp(e, "fast") && strcmp(e, "cycle")) {
    fprintf(stderr, "tsim: unknown engine \"%s\" in TSIM_ENGINE (expected cycle or fast)\n", e);
    return TSIM_EXIT_USAGE;
  }
  a->engine_fast = !strcmp(e, "fast");
  return 0;
}

/* TSIM_RANKS=N (fast engine): the model under `mpirun -np N` on this host,
   its boards split over N ranks (sim/README.md "Fast engine over MPI
   ranks"; runs over several hosts start mpirun themselves, with a hostfile).
   0 when not asked; -1 after saying why N is bad. */
static int ranks_from_env(const TsimArgs *a) {
  const char *e = getenv("TSIM_RANKS");
  char *end;
  if (!e || !*e) return 0;
  long n = strtol(e, &end, 10);
  if (*end || n < 1 || n > 4096) {
    fprintf(stderr, "tsim: TSIM_RANKS \"%s\": expected a number of MPI ranks from 1 to 4096\n", e);
    return -1;
  }
  if (!a->engine_fast) {
    fprintf(stderr, "tsim: TSIM_RANKS=%ld: only the fast engine runs over MPI ranks (--engine fast)\n", n);
    return -1;
  }
  return (int)n;
}

int main(int argc, char **argv) {
  TsimArgs a;
  int rc = tsim_parse_args(argc, argv, &a);
  if (rc) return rc < 0 ? 0 : rc;
  if ((rc = engine_from_env(argc, argv, &a))) return rc;
  if (!a.engine_fast && (rc = tsim_args_no_pc_profile(&a))) return rc;

  char self[4096], model[4096 + 32];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n < 0) {
    fprintf(stderr, "tsim: cannot find my own path: %s\n", strerror(errno));
    return TSIM_EXIT_NO_MODEL;
  }
  self[n] = 0;
  char *slash = strrchr(self, '/');
  if (slash) slash[1] = 0;
  /* A box runs several instances of the board model in one process; a
     cluster (48 boards) too, on the fast engine only. */
  if (!strcmp(a.config, "cluster") && !a.engine_fast) {
    fprintf(stderr, "tsim: --config cluster (%d boards) runs on the fast engine only: add --engine fast\n",
            TSIM_CLUSTER_X * TSIM_CLUSTER_Y);
    return TSIM_EXIT_USAGE;
  }
  const char *model_config = strcmp(a.config, "box") && strcmp(a.config, "cluster") ? a.config : "board";
  snprintf(model, sizeof model, "%stsim-%s%s%s", slash ? self : "", a.engine_fast ? "fast-" : "", model_config,
           a.trace && !a.engine_fast ? "-trace" : "");
  argv[0] = model;
  int ranks = ranks_from_env(&a);
  if (ranks < 0) return TSIM_EXIT_USAGE;
  if (ranks) {
    /* mpirun -np N on this host: as root too, more ranks than cores allowed,
       shared memory between the ranks (no network). */
    static const char *pre[] = {"mpirun", "--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader",
                                "-np"};
    enum { PRE = sizeof pre / sizeof pre[0] };
    char np[16];
    char **mv = calloc((size_t)argc + PRE + 2, sizeof *mv);
    if (!mv) {
      fprintf(stderr, "tsim: out of memory\n");
      return TSIM_EXIT_USAGE;
    }
    snprintf(np, sizeof np, "%d", ranks);
    for (int i = 0; i < PRE; i++) mv[i] = (char *)pre[i];
    mv[PRE] = np;
    for (int i = 0; i < argc; i++) mv[PRE + 1 + i] = argv[i];
    execvp("mpirun", mv);
    fprintf(stderr, "tsim: TSIM_RANKS=%d: cannot run mpirun: %s (make deps installs openmpi-bin)\n", ranks,
            strerror(errno));
    free(mv);
    return TSIM_EXIT_NO_MODEL;
  }
  execv(model, argv);
  fprintf(stderr, "tsim: no model for configuration %s (%s: %s): run make%s\n", a.config, model,
          strerror(errno), a.trace ? " tsim-traces" : "");
  return TSIM_EXIT_NO_MODEL;
}
