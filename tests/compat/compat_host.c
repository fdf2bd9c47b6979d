// tests/compat/compat_host.c: a host program for Tinsel-style apps:
//   compat_host [--config NAME] [--cores N] [--quiet-ms MS] [--query-config C]
//               [--expect TEXT] HOST DEBUG APP.elf
// boots APP on the first N cores of every board (default all), starts all
// of each core's threads, then collects the DebugLink's lines until none
// has come for MS milliseconds (default 3000; at most 60 s) and checks that every
// started thread printed exactly one line, and that thread 0 of every
// core is back in the boot loader (it answers a Load). Prints "ok ..." or
// "FAILED ..." per check; exits 0 when all pass. --query-config C: the
// DebugLink QueryIn config byte (hl_open_opts: link disables, 0x10 the
// extra send slot); --expect TEXT: instead of one line per thread, some
// line must contain TEXT (other apps than hello).
#define _GNU_SOURCE
#include "hostlink.h"
#include "tinsel_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures;

static void verdict(int ok, const char *what, const char *detail) {
  printf("%s %s%s%s\n", ok ? "ok" : "FAILED", what, detail && *detail ? ": " : "", detail ? detail : "");
  failures += !ok;
}

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv) {
  const char *config = "board";
  int cores_per_board = -1, quiet_ms = 3000, a = 1;
  hl_options opts = { 0 };
  const char *expect = NULL;
  for (; a < argc && argv[a][0] == '-'; a += 2) {
    if (a + 1 >= argc) break;
    if (!strcmp(argv[a], "--config")) config = argv[a + 1];
    else if (!strcmp(argv[a], "--cores")) cores_per_board = atoi(argv[a + 1]);
    else if (!strcmp(argv[a], "--quiet-ms")) quiet_ms = atoi(argv[a + 1]);
    else if (!strcmp(argv[a], "--query-config")) opts.query_config = (unsigned)strtoul(argv[a + 1], NULL, 0);
    else if (!strcmp(argv[a], "--expect")) expect = argv[a + 1];
    else break;
  }
  if (argc - a != 3) {
    fprintf(stderr, "usage: compat_host [--config NAME] [--cores N] [--quiet-ms MS] [--query-config C] [--expect TEXT] "
            "HOST DEBUG APP.elf\n");
    return 2;
  }
  char err[512];
  hl_geometry g;
  if (hl_geometry_load(config, &g, err, sizeof err)) { fprintf(stderr, "compat_host: %s\n", err); return 2; }
  hostlink *h = hl_open_opts(argv[a], argv[a + 1], &g, &opts, err, sizeof err);
  if (!h) { fprintf(stderr, "compat_host: %s\n", err); return 2; }
  int nboards = g.boards_x * g.boards_y, per = 1 << g.log_cores_per_board;
  if (cores_per_board < 1 || cores_per_board > per) cores_per_board = per;
  int ncores = nboards * cores_per_board, *cores = malloc(sizeof(int) * (size_t)ncores);
  for (int b = 0, k = 0; b < nboards; b++)
    for (int c = 0; c < cores_per_board; c++) cores[k++] = b * per + c;
  if (hl_load_elf(h, argv[a + 2], cores, ncores) || hl_start(h, cores, ncores, 15) || hl_go(h)) {
    fprintf(stderr, "compat_host: %s\n", hl_error(h));
    return 1;
  }
  // The lines, until the DebugLink has been quiet for quiet_ms.
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  long long last = now_ms(), start = last;
  while (now_ms() - last < quiet_ms && now_ms() - start < 60000) {   // an app that never stops printing: 60 s
    long n = hl_poll_stdout(h, out);
    if (n < 0) { fprintf(stderr, "compat_host: %s\n", hl_error(h)); return 1; }
    if (n > 0) last = now_ms();
    struct timespec nap = { 0, 20 * 1000 * 1000 };
    nanosleep(&nap, NULL);
  }
  hl_end_stdout(h, out);
  fclose(out);
  if (expect) {   // the line with TEXT, or all of them
    char d[300];
    const char *hit = text ? strstr(text, expect) : NULL, *from = hit, *to;
    while (from && from > text && from[-1] != '\n') from--;
    to = hit ? strchr(hit, '\n') : NULL;
    if (hit) snprintf(d, sizeof d, "%.*s", (int)(to ? to - from : (long)strlen(from)), from);
    else snprintf(d, sizeof d, "the lines were: %.250s", text ? text : "");
    verdict(hit != NULL, expect, d);
    free(text);
    text = NULL;
  }
  // One line per started thread: "X:Y:C:T: hello from thread 0xADDR".
  int nthreads = ncores * 16, *seen = calloc((size_t)nthreads, sizeof(int)), lines = 0, bad = 0, extra = 0;
  for (char *line = text ? strtok(text, "\n") : NULL; line; line = strtok(NULL, "\n")) {
    unsigned x, y, c, t, addr;
    lines++;
    if (sscanf(line, "%u:%u:%u:%u: hello from thread 0x%x", &x, &y, &c, &t, &addr) != 5 ||
        addr != hl_to_addr(h, (int)x, (int)y, (int)c, (int)t) || (int)c >= cores_per_board) {
      if (bad++ < 3) fprintf(stderr, "compat_host: unexpected line \"%s\"\n", line);
      continue;
    }
    int i = ((int)(y * (unsigned)g.boards_x + x) * cores_per_board + (int)c) * 16 + (int)t;
    if (seen[i]++) extra++;
  }
  int missing = 0;
  for (int i = 0; i < nthreads; i++) missing += !seen[i];
  char d[200];
  snprintf(d, sizeof d, "%d lines for %d threads on %d cores: %d missing, %d repeated, %d malformed", lines, nthreads,
           ncores, missing, extra, bad);
  if (!expect) verdict(!missing && !extra && !bad, "every thread printed once and main returned", d);
  // Thread 0 of each core is back in the boot loader: it answers a Load.
  int back = 0;
  for (int k = 0; k < ncores; k++) {
    int b = cores[k] / per, c = cores[k] % per;
    uint32_t w;
    if (hl_load(h, b % g.boards_x, b / g.boards_x, c, TinselDRAMBase, &w, 1) == 0) back++;
    else break;
  }
  snprintf(d, sizeof d, "%d of %d cores answered a Load", back, ncores);
  verdict(back == ncores, "thread 0 of every core is back in the boot loader", d);
  hl_close(h);
  free(text);
  free(seen);
  free(cores);
  return failures ? 1 : 0;
}
