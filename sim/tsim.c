/* tsim.c: the dispatcher: check the command line, then run the model binary
   of the configuration (tsim-core, tsim-tile, tsim-board; tsim-NAME-trace
   with --trace) (box: tsim-board) from the same directory with the same arguments;
   with --engine fast, the fast engine's binary tsim-fast-NAME (sim/fast/). */
#define _POSIX_C_SOURCE 200809L
#include "tsim_args.h"

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

int main(int argc, char **argv) {
  TsimArgs a;
  int rc = tsim_parse_args(argc, argv, &a);
  if (rc) return rc < 0 ? 0 : rc;
  if ((rc = engine_from_env(argc, argv, &a))) return rc;

  char self[4096], model[4096 + 32];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n < 0) {
    fprintf(stderr, "tsim: cannot find my own path: %s\n", strerror(errno));
    return TSIM_EXIT_NO_MODEL;
  }
  self[n] = 0;
  char *slash = strrchr(self, '/');
  if (slash) slash[1] = 0;
  /* A box runs several instances of the board model in one process. */
  const char *model_config = strcmp(a.config, "box") ? a.config : "board";
  snprintf(model, sizeof model, "%stsim-%s%s%s", slash ? self : "", a.engine_fast ? "fast-" : "", model_config,
           a.trace && !a.engine_fast ? "-trace" : "");
  argv[0] = model;
  execv(model, argv);
  fprintf(stderr, "tsim: no model for configuration %s (%s: %s): run make%s\n", a.config, model,
          strerror(errno), a.trace ? " tsim-traces" : "");
  return TSIM_EXIT_NO_MODEL;
}
