// pipeline_args.h: the pipeline programs' shared command line (host only).
#ifndef PIPELINE_ARGS_H
#define PIPELINE_ARGS_H
#include "pipeline.h"
// --items N --seed S --qcap Q --scap S --pb1 P --pb2 P --quiet, and for the
// threaded engine --threads T --order-seed R (threads, order_seed NULL: not taken).
// Returns 0, or prints a message and returns non-zero.
int pipeline_args(int argc, char **argv, pipeline_cfg *cfg, int *quiet, uint32_t *threads, uint32_t *order_seed);
#endif
