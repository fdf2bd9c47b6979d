/* tsim_args.c: parse and check tsim's command line (sim/README.md). */
#include "tsim_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const configs[] = {"core", "tile", "board", "box", "cluster"};

static const char usage[] =
    "usage: tsim --config core|tile|board|box|cluster --elf FILE [--profile tinsel|full]\n"
    "            [--max-cycles N] [--watchdog N] [--delay-seed S [--delay-max D]]\n"
    "            [--imem standard|enlarged] [--trace FILE.fst] [--all-threads]\n"
    "            [--progress] [--quiet] [--stats-file FILE] [--preload FILE] [--coherent-dcache]\n"
    "            [--engine cycle|fast] [--pc-profile FILE]\n"
    "       tsim --config core|tile|board|box|cluster --hostlink unix:PATH [--debuglink unix:PATH2|HOST:PORT]\n"
    "            [--boot FILE | --elf FILE] [options as above]\n";

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
  a->watchdog = 2000000ULL;
  a->delay_max = 100;
  int dmax_given = 0, max_given = 0;
  for (int i = 1; i < argc; i++) {
    const char *opt = argv[i];
    if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
      fputs(usage, stdout);
      return -1;
    }
    if (!strcmp(opt, "--all-threads")) { a->all_threads = 1; continue; }
    if (!strcmp(opt, "--quiet")) { a->quiet = 1; continue; }
    if (!strcmp(opt, "--progress")) { a->progress = 1; continue; }
    if (!strcmp(opt, "--coherent-dcache")) { a->coherent_dcache = 1; continue; }
    int takes_value = !strcmp(opt, "--config") || !strcmp(opt, "--elf") || !strcmp(opt, "--profile") ||
                      !strcmp(opt, "--max-cycles") || !strcmp(opt, "--watchdog") || !strcmp(opt, "--trace") ||
                      !strcmp(opt, "--delay-seed") || !strcmp(opt, "--delay-max") || !strcmp(opt, "--imem") || !strcmp(opt, "--hostlink") ||
                      !strcmp(opt, "--debuglink") || !strcmp(opt, "--boot") || !strcmp(opt, "--stats-file") || !strcmp(opt, "--preload") ||
                      !strcmp(opt, "--engine") || !strcmp(opt, "--pc-profile");
    if (!takes_value) return bad("unknown option %s", opt);
    if (i + 1 >= argc) return bad("missing value for %s", opt);
    const char *val = argv[++i];
    if (!strcmp(opt, "--config")) {
      a->config = NULL;
      for (size_t k = 0; k < sizeof configs / sizeof configs[0]; k++)
        if (!strcmp(val, configs[k])) a->config = configs[k];
      if (!a->config) return bad("unknown configuration \"%s\" (expected core, tile, board, box or cluster)", val);
    } else if (!strcmp(opt, "--elf")) {
      a->elf = val;
    } else if (!strcmp(opt, "--trace")) {
      a->trace = val;
    } else if (!strcmp(opt, "--imem")) {
      /* enlarged: 2**EnlargedLogInstrsPerCore words per core pair (boards/tinsel.cfg). */
      if (!strcmp(val, "enlarged")) a->imem_enlarged = 1;
      else if (!strcmp(val, "standard")) a->imem_enlarged = 0;
      else return bad("unknown instruction memory \"%s\" (expected standard or enlarged)", val);
    } else if (!strcmp(opt, "--engine")) {
      /* fast: build/bin/tsim-fast-NAME (sim/README.md "Fast engine"); cycle: the Verilator model. */
      if (!strcmp(val, "fast")) a->engine_fast = 1;
      else if (!strcmp(val, "cycle")) a->engine_fast = 0;
      else return bad("unknown engine \"%s\" (expected cycle or fast)", val);
    } else if (!strcmp(opt, "--boot")) {
      a->boot = val;
    } else if (!strcmp(opt, "--stats-file")) {
      a->stats_file = val;
    } else if (!strcmp(opt, "--preload")) {
      a->preload = val;
    } else if (!strcmp(opt, "--pc-profile")) {
      if (!*val) return bad("%s", "--pc-profile wants a file name, not \"\"");
      a->pc_profile = val;
    } else if (!strcmp(opt, "--hostlink") || !strcmp(opt, "--debuglink")) {
      /* Local sockets: unix:PATH (a socket file) or unix:@NAME (abstract);
         the DebugLink also over TCP, HOST:PORT, as boardctrld serves it. */
      int tcp = !strcmp(opt, "--debuglink") && strncmp(val, "unix:", 5) && strchr(val, ':');
      if (!tcp && (strncmp(val, "unix:", 5) || !val[5] || strlen(val + 5) > 100)) {
        char fmt[128];
        snprintf(fmt, sizeof fmt, "%s wants unix:PATH or unix:@NAME (at most 100 characters)%s, not \"%%s\"", opt,
                 strcmp(opt, "--debuglink") ? "" : " or HOST:PORT");
        return bad(fmt, val);
      }
      if (!strcmp(opt, "--hostlink")) a->hostlink = val;
      else a->debuglink = val;
    } else if (!strcmp(opt, "--profile")) {
      if (!strcmp(val, "full")) a->profile_full = 1;
      else if (strcmp(val, "tinsel")) return bad("unknown profile \"%s\" (expected tinsel or full)", val);
    } else {
      // Numbers: --max-cycles must be positive; --watchdog 0 turns the
      // watchdog off; --delay-max at most 1000000 cycles.
      int is_max = !strcmp(opt, "--max-cycles"), is_dmax = !strcmp(opt, "--delay-max");
      char *end;
      errno = 0;
      unsigned long long n = strtoull(val, &end, 10);
      if (errno || end == val || *end || val[0] == '-' || (is_max && n == 0) || (is_dmax && n > 1000000)) {
        char fmt[96];  /* opt is one of our option names: no % in it */
        snprintf(fmt, sizeof fmt, "%s wants %s, not \"%%s\"", opt,
                 is_max ? "a positive integer" : is_dmax ? "a number of cycles from 0 to 1000000" : "a non-negative integer");
        return bad(fmt, val);
      }
      if (is_max) { a->max_cycles = n; max_given = 1; }
      else if (is_dmax) { a->delay_max = n; dmax_given = 1; }
      else if (!strcmp(opt, "--watchdog")) a->watchdog = n;
      else { a->delay_seed = n; a->delay_on = 1; }
    }
  }
  /* OP2 programs spawn tsim themselves: the environment asks for the profile too. */
  const char *pe = getenv("TSIM_PC_PROFILE");
  if (!a->pc_profile && pe && *pe) a->pc_profile = pe;
  if (!a->config) return bad("%s", "missing --config");
  if (!a->elf && !a->hostlink) return bad("%s", "missing --elf");
  if (a->debuglink && !a->hostlink) return bad("%s", "--debuglink needs --hostlink");
  if (a->boot && !a->hostlink) return bad("%s", "--boot needs --hostlink");
  if (a->boot && a->elf) return bad("%s", "--boot and --elf exclude each other");
  if (a->hostlink && a->debuglink && !strcmp(a->hostlink, a->debuglink))
    return bad("--hostlink and --debuglink need different sockets (both %s)", a->hostlink);
  /* A host drives the run and ends it by closing the link: no cycle limit
     unless one is asked for. */
  if (a->hostlink && !max_given) a->max_cycles = ~0ULL;
  if (dmax_given && !a->delay_on) return bad("%s", "--delay-max needs --delay-seed");
  return 0;
}

int tsim_args_no_pc_profile(const TsimArgs *a) {
  if (!a->pc_profile) return 0;
  fprintf(stderr, "tsim: --pc-profile %s (or TSIM_PC_PROFILE): only the fast engine counts retired instructions per pc: "
          "add --engine fast (or TSIM_ENGINE=fast)\n", a->pc_profile);
  return TSIM_EXIT_USAGE;
}
