/* tsim_args.h: tsim's command line, shared by the dispatcher and the models. */
#ifndef TSIM_ARGS_H
#define TSIM_ARGS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Exit codes (sim/README.md). 1..63 are a failing program's tohost code. */
enum {
  TSIM_EXIT_PASS = 0,
  TSIM_EXIT_FAIL_MAX = 63,
  TSIM_EXIT_USAGE = 64,
  TSIM_EXIT_INPUT = 65,
  TSIM_EXIT_OUTPUT = 66,   /* the run ended well, but threads' StdOut was lost (tsim_debuglink.h) */
  TSIM_EXIT_DEADLOCK = 123,
  TSIM_EXIT_TIMEOUT = 124,
  TSIM_EXIT_HALT = 125,
  TSIM_EXIT_NO_MODEL = 126
};

typedef struct {
  const char *config;           /* core, tile, board, box or cluster (several board models) */
  const char *elf;
  const char *trace;            /* FST file or NULL */
  int profile_full;
  int all_threads;
  int quiet;
  unsigned long long max_cycles;
  unsigned long long watchdog;  /* cycles without progress that mean deadlock; 0: off */
  int delay_on;                 /* --delay-seed given */
  unsigned long long delay_seed;
  unsigned long long delay_max; /* --delay-max, extra cycles */
  int progress;                 /* --progress: the progress line even when stderr is not a terminal */
  int imem_enlarged;            /* --imem enlarged: EnlargedLogInstrsPerCore words per core pair */
  const char *hostlink;         /* --hostlink unix:PATH or unix:@NAME: serve the host link there */
  const char *debuglink;        /* --debuglink ADDRESS: the DebugLink (needs --hostlink) */
  const char *boot;             /* --boot FILE: the boot loader (default: the firmware build's) */
  const char *stats_file;       /* --stats-file FILE: machine-readable statistics at exit */
  const char *preload;          /* --preload FILE: code, memory and thread starts loaded before the first cycle */
  int coherent_dcache;          /* --coherent-dcache: caches read and write memory directly (not real Tinsel) */
  int engine_fast;              /* --engine fast: the instruction-level engine (sim/fast/), not the cycle model */
  const char *pc_profile;       /* --pc-profile FILE: append retired instructions per core and pc (fast engine; sim/README.md "Profile per pc") */
} TsimArgs;

/* Fill *a from argv. On a usage error print "tsim: ..." and the usage line
   to stderr and return TSIM_EXIT_USAGE; return -1 after --help; else 0. */
int tsim_parse_args(int argc, char **argv, TsimArgs *a);

/* The cycle models count no instructions per pc: when *A asks for the
   profile (--pc-profile or TSIM_PC_PROFILE), say so and return
   TSIM_EXIT_USAGE; else 0. */
int tsim_args_no_pc_profile(const TsimArgs *a);

#ifdef __cplusplus
}
#endif

#endif
