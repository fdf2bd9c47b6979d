// pipeline_args.c: see pipeline_args.h.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipeline_args.h"

static int number(const char *prog, const char *opt, const char *s, uint32_t max, uint32_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (!*s || *end || errno || s[0] == '-' || v > max) {
    fprintf(stderr, "%s: %s wants a number from 0 to %u, not '%s'\n", prog, opt, (unsigned)max, s);
    return 1;
  }
  *out = (uint32_t)v;
  return 0;
}

int pipeline_args(int argc, char **argv, pipeline_cfg *cfg, pipeline_opts *o, int engine) {
  *cfg = (pipeline_cfg){.items = 1000, .seed = 1, .qcap = 32, .scap = 8, .pb1 = 4, .pb2 = 2};
  *o = (pipeline_opts){.threads = 4, .order_seed = 1};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    uint32_t *dst = 0, max = 0xffffffffu;
    if (!strcmp(a, "--quiet")) { o->quiet = 1; continue; }
    if (!engine && !strcmp(a, "--trace")) { o->trace = 1; continue; }
    if (engine && !strcmp(a, "--lazy")) { o->lazy = 1; continue; }
    if (engine && !strcmp(a, "--functional")) { o->functional = 1; continue; }
    if (!strcmp(a, "--items")) dst = &cfg->items, max = 100000000u;
    else if (!strcmp(a, "--seed")) dst = &cfg->seed;
    else if (!strcmp(a, "--qcap")) dst = &cfg->qcap, max = STREAM_QCAP;
    else if (!strcmp(a, "--scap")) dst = &cfg->scap, max = STREAM_SCAP;
    else if (!strcmp(a, "--pb1")) dst = &cfg->pb1, max = 1000000u;
    else if (!strcmp(a, "--pb2")) dst = &cfg->pb2, max = 1000000u;
    else if (engine && !strcmp(a, "--threads")) dst = &o->threads, max = PL_NODES;
    else if (engine && !strcmp(a, "--order-seed")) dst = &o->order_seed;
    if (!dst) { fprintf(stderr, "%s: unknown option '%s'\n", argv[0], a); return 1; }
    if (i + 1 >= argc) { fprintf(stderr, "%s: %s wants a value\n", argv[0], a); return 1; }
    if (number(argv[0], a, argv[++i], max, dst)) return 1;
  }
  if (o->threads < 1) { fprintf(stderr, "%s: --threads wants 1 to %u\n", argv[0], (unsigned)PL_NODES); return 1; }
  return 0;
}
