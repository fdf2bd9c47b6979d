/* tsim_args.c: parse and check tsim's command line (sim/README.md). */
#include "tsim_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const configs[] = {"core", "tile", "board"};

static const char usage[] =
    "usage: tsim --config core|tile|board --elf FILE [--profile tinsel|full]\n"
    "            [--max-cycles N] [--trace FILE.fst] [--all-threads] [--quiet]\n";

static int bad(const char *fmt, const char *arg) {
  fputs("tsim: ", stderr);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  fputs(usage, stderr);
  return TSIM_EXIT_USAGE;
}

int tsim_parse_args(int argc, char **argv, TsimArgs *a) {
  memset(a, 0, sizeof *a);
  a->max_cycles = 10000000ULL;
  for (int i = 1; i < argc; i++) {
    const char *opt = argv[i];
    if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
      fputs(usage, stdout);
      return -1;
    }
    if (!strcmp(opt, "--all-threads")) { a->all_threads = 1; continue; }
    if (!strcmp(opt, "--quiet")) { a->quiet = 1; continue; }
    int takes_value = !strcmp(opt, "--config") || !strcmp(opt, "--elf") || !strcmp(opt, "--profile") ||
                      !strcmp(opt, "--max-cycles") || !strcmp(opt, "--trace");
    if (!takes_value) return bad("unknown option %s", opt);
    if (i + 1 >= argc) return bad("missing value for %s", opt);
    const char *val = argv[++i];
    if (!strcmp(opt, "--config")) {
      a->config = NULL;
      for (size_t k = 0; k < sizeof configs / sizeof configs[0]; k++)
        if (!strcmp(val, configs[k])) a->config = configs[k];
      if (!a->config) return bad("unknown configuration \"%s\" (expected core, tile or board)", val);
    } else if (!strcmp(opt, "--elf")) {
      a->elf = val;
    } else if (!strcmp(opt, "--trace")) {
      a->trace = val;
    } else if (!strcmp(opt, "--profile")) {
      if (!strcmp(val, "full")) a->profile_full = 1;
      else if (strcmp(val, "tinsel")) return bad("unknown profile \"%s\" (expected tinsel or full)", val);
    } else {
      char *end;
      errno = 0;
      unsigned long long n = strtoull(val, &end, 10);
      if (errno || end == val || *end || val[0] == '-' || n == 0)
        return bad("--max-cycles wants a positive integer, not \"%s\"", val);
      a->max_cycles = n;
    }
  }
  if (!a->config) return bad("%s", "missing --config");
  if (!a->elf) return bad("%s", "missing --elf");
  return 0;
}
