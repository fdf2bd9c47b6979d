// pipeline_tinsel.c: the pipeline on the cycle models (tsim --config
// tile|board|box), as a host program loads it. The host builds every
// partition's thread image (pipeline_build, stream_check, stream_ss_build:
// graph, queues and softswitch tables) and an image with no device for
// every other thread, writes them as a tsim --preload file at each
// thread's tinselHeapBase (taskgraph/ssrun.c), runs tsim with the thread
// program (pipeline_fw.c: one image, within real Tinsel's instruction
// memory), reads the words each partition thread reports and formats them
// (stream_report), and judges the run as the host engines do
// (pipeline_judge: the sink's output against the reference, nothing lost,
// no misuse, every node drained, no edge over its consumer's queues).
//
//   pipeline_tinsel [--items N ...as pipeline_oracle] [--config tile|board|box]
//                   [--delay-seed D] [--imem standard|enlarged] [--fw FILE.elf] [--tsim PATH]
//                   [--keep-preload FILE] [--threads T]
//
// Placement: T partitions (--threads, default 8: one node per thread), node
// i on partition i*T/8 as pipeline_ss places them; partition p on a thread
// as before the host built the images: on a tile
// two threads per core on all four cores, on a board 8 mailboxes over the
// mesh, on a box boards 0, 1 and 2 in turn.
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipeline.h"
#include "pipeline_args.h"
#include "ss_stream.h"
#include "ssrun.h"
#include "stream_report.h"

static uint32_t part_addr(int cfg, uint32_t p) {
  if (cfg == 0) return (p % 4u) * 16u + p / 4u;
  if (cfg == 1) return ((p * 5u) % 16u) << 6 | ((p * 9u) % 64u);
  return (p % 3u) << 10 | ((p * 5u) % 16u) << 6 | p;
}

typedef struct {
  stream_graph g[PL_NODES];
  uint32_t tw[PL_NODES][14];  // part, thread id, bad image, cycles, lost, errors; ss_stats
  uint32_t seen[PL_NODES];    // lines: t, s, and n, q, u of each of its nodes
  uint32_t failed_lines;
} Run;

// Exactly N hex words from S (nothing after them): 0, else -1.
static int parse_words(const char *s, uint32_t *w, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    char *end;
    unsigned long v = strtoul(s, &end, 16);
    if (end == s || v > 0xffffffffu) return -1;
    w[i] = (uint32_t)v, s = end;
  }
  return strspn(s, " \r\n") == strlen(s) ? 0 : -1;
}

// The reports of the partition threads (pipeline_fw.c): their counts, and
// their nodes' statistics into the host's copy of each graph, where
// stream_report and pipeline_judge read them.
static void line_fn(void *ctx, const char *line) {
  Run *r = ctx;
  uint32_t w[12];
  char kind = !strncmp(line, "pl: ", 4) ? line[4] : 0;
  const char *s = line + 5;
  if (kind == 't' && !parse_words(s, w, 6) && w[0] < PL_NODES) {
    memcpy(r->tw[w[0]], w, 6 * sizeof w[0]);
    r->g[w[0]].lost = w[4], r->g[w[0]].errors = w[5];
  } else if (kind == 's' && !parse_words(s, w, 9) && w[0] < PL_NODES) {
    memcpy(r->tw[w[0]] + 6, w + 1, 8 * sizeof w[0]);
  } else if ((kind == 'n' || kind == 'q' || kind == 'u') &&
             strtoul(s, NULL, 16) < PL_NODES) {
    uint32_t i = (uint32_t)strtoul(s, NULL, 16);
    stream_graph *g = &r->g[r->g[0].place[i]];
    stream_node *n = &g->nodes[i];
    if (kind == 'n' && !parse_words(s, w, 12)) {
      n->active = (w[1] >> 24) & 0xffu, n->blocked = w[2] & 0xffu;  // bytes 3 and 4 of region..nout
      n->st = (stream_stats){w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11]};
    } else if (kind == 'q' && !parse_words(s, w, 10)) {
      n->in.n = w[3], n->in.sn = w[6], n->in.hw = w[8], n->in.shw = w[9];
    } else if (kind == 'u' && !parse_words(s, w, 3 + n->nout)) {
      n->user[0] = w[1], n->user[1] = w[2];
      for (uint32_t k = 0; k < n->nout; k++) g->proxy[n->out[k]].hw = w[3 + k];
    } else {
      r->failed_lines++;
      fputs(line, stdout);
      return;
    }
  } else if (kind || strstr(line, "softswitch error")) {
    r->failed_lines++;
    fputs(line, stdout);
    return;
  }
  if (kind && kind != 's' && kind != 't') r->seen[r->g[0].place[strtoul(s, NULL, 16)]]++;
  else if (kind) r->seen[w[0]]++;
}

static void usage_die(const char *prog, const char *msg) {
  fprintf(stderr, "%s: %s\n", prog, msg);
  exit(2);
}

int main(int argc, char **argv) {
  // Our options first; the rest are pipeline_oracle's (pipeline_args).
  const char *config = "board", *delay_seed = NULL, *fw = NULL, *tsim = "build/bin/tsim", *keep = NULL, *imem = "standard", *threads = "8";
  char *rest[64];
  int nrest = 0;
  rest[nrest++] = argv[0];
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char **dst = !strcmp(a, "--config") ? &config : !strcmp(a, "--delay-seed") ? &delay_seed
                     : !strcmp(a, "--fw") ? &fw : !strcmp(a, "--tsim") ? &tsim : !strcmp(a, "--keep-preload") ? &keep
                     : !strcmp(a, "--imem") ? &imem : !strcmp(a, "--threads") ? &threads : NULL;
    if (dst) {
      if (i + 1 >= argc) usage_die(argv[0], "an option wants a value");
      *dst = argv[++i];
    } else if (nrest < 63) {
      rest[nrest++] = argv[i];
    } else {
      usage_die(argv[0], "too many arguments");
    }
  }
  rest[nrest] = NULL;
  pipeline_cfg cfg;
  pipeline_opts o;
  if (pipeline_args(nrest, rest, &cfg, &o, 0) || o.trace) {
    if (o.trace) fprintf(stderr, "%s: --trace is the oracle's\n", argv[0]);
    return 2;
  }
  int cfgi = !strcmp(config, "tile") ? 0 : !strcmp(config, "board") ? 1 : !strcmp(config, "box") ? 2 : -1;
  if (cfgi < 0) usage_die(argv[0], "--config is tile, board or box");
  if (!fw) fw = cfgi == 0 ? "build/fw/boards/tile/pipeline.elf" : "build/fw/pipeline.elf";
  if (strcmp(imem, "standard") && strcmp(imem, "enlarged")) usage_die(argv[0], "--imem is standard or enlarged");
  uint32_t parts = (uint32_t)strtoul(threads, NULL, 10);
  if (strspn(threads, "0123456789") != strlen(threads) || parts < 1 || parts > PL_NODES)
    usage_die(argv[0], "--threads wants 1 to 8");
  if (delay_seed && strspn(delay_seed, "0123456789") != strlen(delay_seed))
    usage_die(argv[0], "--delay-seed wants a number");

  PlaceMachine m;
  char err[512];
  if (place_machine_load(&m, config, err, sizeof err) != 0) {
    fprintf(stderr, "%s: configuration %s: %s\n", argv[0], config, err);
    return 2;
  }
  uint32_t nt = (uint32_t)m.nthreads, addr[PL_NODES], thread[PL_NODES];
  uint8_t place[PL_NODES];
  for (uint32_t i = 0; i < PL_NODES; i++) place[i] = (uint8_t)(i * parts / PL_NODES);  // as pipeline_ss
  for (uint32_t p = 0; p < parts; p++) {
    addr[p] = part_addr(cfgi, p), thread[p] = nt;
    for (uint32_t t = 0; t < nt; t++)
      if (place_thread_addr(&m, t) == addr[p]) thread[p] = t;
    if (thread[p] == nt) {
      fprintf(stderr, "%s: %s has no thread 0x%x for partition %u\n", argv[0], config, (unsigned)addr[p], (unsigned)p);
      return 2;
    }
  }
  static Run run;
  uint8_t **image = calloc(nt, sizeof *image);
  uint32_t *bytes = calloc(nt, sizeof *bytes);
  static stream_ss_image img[PL_NODES];
  ss_thread_image none = {.magic = SS_MAGIC, .version = SS_VERSION, .flags = SS_FLAG_EXIT_ON_IDLE,
                          .image_bytes = sizeof none};
  if (!image || !bytes) usage_die(argv[0], "out of memory");
  for (uint32_t t = 0; t < nt; t++) image[t] = (uint8_t *)&none, bytes[t] = sizeof none;
  for (uint32_t p = 0; p < parts; p++) {
    pipeline_build(&img[p].state.g, &cfg, place, p);
    const char *bad = stream_check(&img[p].state.g);
    if (bad) {
      fprintf(stderr, "%s: %s\n", argv[0], bad);
      return 2;
    }
    if (stream_ss_build(&img[p], addr, SS_FLAG_EXIT_ON_IDLE)) usage_die(argv[0], "a partition needs over 8 pins");
    if (STREAM_SS_WIRE_BYTES + SS_STACK_RESERVE > m.thread_bytes) {
      fprintf(stderr, "%s: a thread image of %u bytes and the stack's %u do not fit a thread's %u bytes of DRAM\n",
              argv[0], (unsigned)STREAM_SS_WIRE_BYTES, (unsigned)SS_STACK_RESERVE, (unsigned)m.thread_bytes);
      return 2;
    }
    image[thread[p]] = (uint8_t *)&img[p], bytes[thread[p]] = STREAM_SS_WIRE_BYTES;
    run.g[p] = img[p].state.g;  // the host's copy, where the reports land
  }
  PlaceRoutes routes = {0};  // unicast to mailboxes only: no routing keys
  ssrun_images im = {&m, &routes, image, bytes};
  char path[256];
  if (keep) snprintf(path, sizeof path, "%s", keep);
  else snprintf(path, sizeof path, "/tmp/pipeline_tinsel.%ld.pre", (long)getpid());
  if (ssrun_preload(&im, path, err, sizeof err) != 0) {
    fprintf(stderr, "%s: %s\n", argv[0], err);
    return 2;
  }
  printf("tinsel: %s, %u items, %u threads with a partition (of %u nodes) of %u; %s\n", config,
         (unsigned)cfg.items, (unsigned)parts, (unsigned)PL_NODES, (unsigned)nt, fw);
  int st = ssrun_tsim(tsim, config, imem, fw, path, delay_seed, line_fn, &run);
  if (!keep) unlink(path);
  free(image), free(bytes);

  const stream_graph *gp[PL_NODES];
  uint32_t missing = 0, cycles = 0, msgs = 0, bad = 0;
  for (uint32_t p = 0; p < parts; p++) {
    uint32_t nodes = 0;
    for (uint32_t i = 0; i < PL_NODES; i++) nodes += place[i] == p;
    gp[p] = &run.g[p];
    missing += run.seen[p] != 2 + 3 * nodes;  // t, s, and n, q, u of each node
    bad += run.tw[p][2] || run.tw[p][13];
    if (run.tw[p][3] > cycles) cycles = run.tw[p][3];
    msgs += run.tw[p][9];
  }
  pipeline_verdict v;
  pipeline_judge(gp, parts, place, &cfg, &v);
  printf("pipeline: %u items in, %u out, hash 0x%08x\n", (unsigned)cfg.items, (unsigned)v.out, (unsigned)v.hash);
  if (!o.quiet) {
    stream_report_header();
    for (uint32_t p = 0; p < parts; p++) stream_report(gp[p]);
    for (uint32_t p = 0; p < parts; p++)
      printf("thread 0x%x (partition %u, from %s): %u cycles in ss_run, %u waiting; sent %u, received %u messages; %u handlers\n",
             (unsigned)run.tw[p][1], (unsigned)p, run.g[p].nodes[(p * PL_NODES + parts - 1) / parts].name, (unsigned)run.tw[p][3], (unsigned)run.tw[p][11],
             (unsigned)run.tw[p][7], (unsigned)run.tw[p][9], (unsigned)run.tw[p][10]);
  }
  int ok = st == 0 && !missing && !bad && !run.failed_lines && v.ok;
  printf("tinsel: %s%s%s, %u cycles in ss_run (the longest thread), %u messages received; lost %u, errors %u, nodes "
         "not drained %u, edges over %u, reports missing %u, bad images or softswitch errors %u; reference %u out, "
         "hash 0x%08x: %s\n",
         config, delay_seed ? ", delay seed " : "", delay_seed ? delay_seed : "", (unsigned)cycles, (unsigned)msgs,
         (unsigned)v.lost, (unsigned)v.errors, (unsigned)v.left, (unsigned)v.over, (unsigned)missing, (unsigned)bad,
         (unsigned)v.want_out, (unsigned)v.want_hash, ok ? "agrees" : "DIFFERS");
  if (st != 0) fprintf(stderr, "%s: tsim exited with status %d\n", argv[0], st);
  return ok ? 0 : 1;
}
