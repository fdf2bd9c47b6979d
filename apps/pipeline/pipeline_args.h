// pipeline_args.h: the pipeline programs' shared command line (host only).
#ifndef PIPELINE_ARGS_H
#define PIPELINE_ARGS_H
#include "pipeline.h"

typedef struct {
  int quiet;            // --quiet: no statistics table
  int trace;            // --trace (oracle): one line per firing
  int lazy;             // --lazy (engine): deliver messages only when no thread has work
  int functional;       // --functional (engine): the functional engine (stream_func.c), not the softswitch
  uint32_t threads;     // --threads T (engine), 1..PL_NODES
  uint32_t order_seed;  // --order-seed R (engine)
} pipeline_opts;

// --items N --seed S --qcap Q --scap S --pb1 P --pb2 P --quiet, and
// --trace for the oracle (engine 0) or --threads, --order-seed, --lazy, --functional for
// the softswitch engine (engine 1). Returns 0, or prints a message and
// returns non-zero.
int pipeline_args(int argc, char **argv, pipeline_cfg *cfg, pipeline_opts *o, int engine);
#endif
