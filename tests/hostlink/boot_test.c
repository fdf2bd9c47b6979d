// tests/hostlink/boot_test.c: boots a board, a tile or a box through the
// host link (libhostlink against tsim --hostlink --debuglink) and checks
// the conversation with the test app (app.c): every thread of the started
// cores says hello, answers the host's ping, thread 5 of core 3 of each
// board prints a line, thread 0 of each core leaves a result in DRAM that
// hl_load reads back.
//   boot_test [--config NAME] [--cores K] HOSTLINK DEBUGLINK APP.elf
//       NAME: the boards/ configuration tsim runs (default board), whose
//       geometry the library gets at run time (hl_geometry_load);
//       K: start cores 0..K-1 of every board (default all)
//   boot_test --idle MS HOSTLINK DEBUGLINK   (connect, wait MS ms, close:
//                                             tsim must sleep meanwhile)
//   boot_test --bad-header HOSTLINK          (send a header with 8 flits:
//                                             tsim must stop and say why)
//   boot_test --raw HOSTLINK NBYTES WORD...  (send the first NBYTES bytes of
//                                             the 32-bit WORDs, hex, then close
//                                             the sending side; wait for tsim)
//   boot_test --echo N CONFIG HOSTLINK       (N messages to thread 0, each
//                                             after its own pause, each
//                                             answered by echo.c)
// Prints one line per check ("ok ..." or "FAILED ...") and exits non-zero
// when any failed.
#define _POSIX_C_SOURCE 200809L
#include "elf32.h"
#include "hl_sockaddr.h"
#include "hostlink.h"
#include "tinsel_config.h"
#include "wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { WAIT_MS = 120000 };
static int failures;
static int nthreads;            // threads of the started cores
static int *thread_index;       // [thread address]: 0..nthreads-1, or -1
static uint32_t *thread_addr;   // [0..nthreads)

static void check(int ok, const char *fmt, const char *detail) {
  printf("%s ", ok ? "ok" : "FAILED");
  printf(fmt, detail);
  putchar('\n');
  failures += !ok;
}

static void die(const char *what, const char *why) {
  fprintf(stderr, "boot_test: %s: %s\n", what, why);
  exit(2);
}

// A bare connection to tsim's host link, for the frames libhostlink would never send.
static int raw_connect(const char *spec) {
  char err[256];
  struct sockaddr_un sa;
  socklen_t salen;
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (hl_unix_addr(spec, &sa, &salen, err, sizeof err)) die("address", err);
  for (int tries = 0; connect(fd, (struct sockaddr *)&sa, salen) && tries < 50; tries++) {
    struct timespec pause = { 0, 100000000L };
    nanosleep(&pause, NULL);
  }
  return fd;
}

static int cores_per_board(const hostlink *h) { return 1 << hl_geometry_of(h)->log_cores_per_board; }

// Thread addresses of the geometry are below this.
static uint32_t max_addr(const hostlink *h) {
  const hl_geometry *g = hl_geometry_of(h);
  return 1u << (g->mesh_x_bits + g->mesh_y_bits + g->log_cores_per_board + TinselLogThreadsPerCore);
}

// Receives one message per thread whose word 1 is TAG (word 2: the thread's
// value); returns how many distinct threads answered correctly.
static int collect(hostlink *h, uint32_t tag, const uint32_t *value, char *why, size_t whylen) {
  unsigned char *seen = calloc((size_t)nthreads, 1);
  int good = 0;
  for (int i = 0; i < nthreads; i++) {
    uint32_t msg[16];
    int r = hl_recv(h, msg, WAIT_MS);
    if (r <= 0) {
      snprintf(why, whylen, "after %d messages: %s", i, r < 0 ? hl_error(h) : "timeout");
      break;
    }
    int id = msg[0] < max_addr(h) ? thread_index[msg[0]] : -1;
    if (id < 0 || seen[id] || msg[1] != tag || (value && msg[2] != value[id] + 1)) {
      snprintf(why, whylen, "bad message {0x%x, 0x%x, 0x%x}", msg[0], msg[1], msg[2]);
      break;
    }
    seen[id] = 1;
    good++;
  }
  if (good == nthreads) snprintf(why, whylen, "%d of %d", good, nthreads);
  free(seen);
  return good;
}

// --echo: a message reaches a quiet board at any cycle of tsim's count of
// quiet cycles, depending on how long the host took. Pauses from 0 to
// 490 us in 10 us steps, in a scrambled order, move the moment across the
// count (a few hundred cycles of a sleeping tile take tens of us); each
// message must be answered, however late in the count it came. A message
// tsim took in the count's last MacLatency cycles used to stay in the
// board router while tsim slept waiting for the host: no answer.
static int echo(int n, const char *config, const char *host) {
  char err[512];
  hl_geometry geo;
  if (hl_geometry_load(config, &geo, err, sizeof err)) die("hl_geometry_load", err);
  hostlink *h = hl_open(host, NULL, &geo, err, sizeof err);
  if (!h) die("hl_open", err);
  int answered = 0;
  for (int i = 0; i < n; i++) {
    struct timespec pause = { 0, (long)(i * 37 % 50) * 10000L };
    nanosleep(&pause, NULL);
    uint32_t msg[16] = { (uint32_t)i };
    if (hl_send(h, hl_to_addr(h, 0, 0, 0, 0), 1, msg)) die("hl_send", hl_error(h));
    int r = hl_recv(h, msg, 5000);
    if (r != 1 || msg[0] != (uint32_t)i + 1) {
      printf("FAILED echo: message %d of %d (after a %ld us pause): %s\n", i, n, pause.tv_nsec / 1000,
             r < 0 ? hl_error(h) : r == 0 ? "no answer within 5 s" : "a wrong answer");
      break;
    }
    answered++;
  }
  if (answered == n) printf("ok echo: %d of %d messages answered\n", answered, n);
  hl_close(h);
  return answered == n ? 0 : 1;
}

int main(int argc, char **argv) {
  char err[512], why[256];
  if (argc == 5 && !strcmp(argv[1], "--idle")) {
    hl_geometry geo;
    if (hl_geometry_load("board", &geo, err, sizeof err)) die("hl_geometry_load", err);
    hostlink *h = hl_open(argv[3], argv[4], &geo, err, sizeof err);
    if (!h) die("hl_open", err);
    long ms = atol(argv[2]);
    struct timespec idle = { ms / 1000, ms % 1000 * 1000000L };
    nanosleep(&idle, NULL);
    hl_close(h);
    return 0;
  }
  if (argc == 5 && !strcmp(argv[1], "--echo")) return echo(atoi(argv[2]), argv[3], argv[4]);
  if (argc == 3 && !strcmp(argv[1], "--bad-header")) {
    int fd = raw_connect(argv[2]);
    uint32_t bad[4 + 32] = { 0, 0, 7u << 24, 0 };   // 8 flits: more than a message has
    if (write(fd, bad, sizeof bad) != (ssize_t)sizeof bad) die("write", "short");
    char c;
    while (read(fd, &c, 1) > 0) {}   // until tsim closes
    close(fd);
    return 0;
  }
  if (argc >= 4 && !strcmp(argv[1], "--raw")) {
    int fd = raw_connect(argv[2]);
    size_t nbytes = strtoul(argv[3], NULL, 0), n = 0;
    unsigned char buf[4096];
    for (int i = 4; i < argc && n + 4 <= sizeof buf; i++) {
      uint32_t w = (uint32_t)strtoul(argv[i], NULL, 16);
      for (int k = 0; k < 4; k++) buf[n++] = (unsigned char)(w >> (8 * k));
    }
    if (nbytes > n) die("--raw", "NBYTES is more than the words hold");
    if (write(fd, buf, nbytes) != (ssize_t)nbytes) die("write", "short");
    shutdown(fd, SHUT_WR);   // the host is done: tsim sees the end of the stream
    char c;
    while (read(fd, &c, 1) > 0) {}   // until tsim closes
    close(fd);
    return 0;
  }
  const char *config = "board";
  int per_board = 0;   // 0: every core
  int a = 1;
  for (; a + 1 < argc && argv[a][0] == '-' && argv[a][1] == '-'; a += 2)
    if (!strcmp(argv[a], "--config")) config = argv[a + 1];
    else if (!strcmp(argv[a], "--cores")) per_board = atoi(argv[a + 1]);
    else break;
  if (argc - a != 3) {
    fprintf(stderr, "usage: boot_test [--config NAME] [--cores K] HOSTLINK DEBUGLINK APP.elf | "
                    "boot_test --idle MS HOSTLINK DEBUGLINK | boot_test --bad-header HOSTLINK | boot_test --raw HOSTLINK NBYTES WORD...\n");
    return 2;
  }
  hl_geometry geo;
  if (hl_geometry_load(config, &geo, err, sizeof err)) die("hl_geometry_load", err);
  hostlink *h = hl_open(argv[a], argv[a + 1], &geo, err, sizeof err);
  if (!h) die("hl_open", err);
  const char *app = argv[a + 2];
  Elf32 elf;
  uint32_t results;
  if (elf32_load(app, &elf, err, sizeof err) || elf32_symbol(&elf, "app_results", &results))
    die(app, "cannot read it or its symbol app_results");
  elf32_free(&elf);

  // The cores to start: 0..K-1 of every board, board-major.
  int cpb = cores_per_board(h), nboards = geo.boards_x * geo.boards_y;
  if (per_board < 1 || per_board > cpb) per_board = cpb;
  int *cores = malloc(sizeof(int) * (size_t)(nboards * per_board));
  thread_addr = malloc(sizeof(uint32_t) * (size_t)(nboards * per_board * TinselThreadsPerCore));
  thread_index = malloc(sizeof(int) * max_addr(h));
  if (!cores || !thread_addr || !thread_index) die("boot_test", "out of memory");
  for (uint32_t i = 0; i < max_addr(h); i++) thread_index[i] = -1;
  int ncores = 0;
  for (int b = 0; b < nboards; b++)
    for (int c = 0; c < per_board; c++) {
      cores[ncores++] = b * cpb + c;
      for (int t = 0; t < TinselThreadsPerCore; t++) {
        uint32_t id = hl_to_addr(h, b % geo.boards_x, b / geo.boards_x, c, t);
        thread_index[id] = nthreads;
        thread_addr[nthreads++] = id;
      }
    }

  if (hl_load_elf(h, app, cores, ncores)) die("hl_load_elf", hl_error(h));
  if (hl_start(h, cores, ncores, TinselThreadsPerCore - 1)) die("hl_start", hl_error(h));
  check(1, "%s", "every core acknowledged StartCmd");
  if (hl_go(h)) die("hl_go", hl_error(h));

  check(collect(h, APP_HELLO, NULL, why, sizeof why) == nthreads, "hello from every thread (%s)", why);
  uint32_t *value = calloc((size_t)nthreads, sizeof(uint32_t));
  if (!value) die("boot_test", "out of memory");
  for (int i = 0; i < nthreads; i++) {
    uint32_t msg[4] = { APP_PING, value[i] = thread_addr[i] * 7u + 5u, 0, 0 };
    if (hl_send(h, thread_addr[i], 1, msg)) die("hl_send", hl_error(h));
  }
  check(collect(h, APP_ECHO, value, why, sizeof why) == nthreads, "every thread echoed the host's message (%s)", why);
  free(value);

  // The DebugLink lines, prefixed x:y:core:thread: one per board (when core 3 runs).
  int want_lines = per_board > 3 ? nboards : 0, lines = 0;
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  for (int tries = 0; tries < 600 && lines < want_lines; tries++) {
    if (hl_poll_stdout(h, mem) < 0) die("hl_poll_stdout", hl_error(h));
    fflush(mem);
    lines = 0;
    for (const char *p = text; p && (p = strchr(p, '\n')); p++) lines++;
    if (lines < want_lines) {
      struct timespec pause = { 0, 100000000L };
      nanosleep(&pause, NULL);
    }
  }
  fclose(mem);
  int ok = lines == want_lines;
  for (int b = 0; b < want_lines && ok; b++) {
    char line[80];
    snprintf(line, sizeof line, "%d:%d:3:5: hello from core 3 thread 5\n", b % geo.boards_x, b / geo.boards_x);
    ok = strstr(text, line) != NULL;
  }
  char *nl = text && want_lines ? strchr(text, '\n') : NULL;
  if (nl) *nl = 0;   /* the first line in the report */
  snprintf(why, sizeof why, "%d of %d lines, first: %s", lines, want_lines, text && *text ? text : "(none)");
  check(ok, "DebugLink StdOut: %s", why);
  free(text);

  // What thread 0 of each core stored, through the boot loader of the first core of each DRAM.
  int right = 0, cpd = 1 << geo.log_cores_per_dram;
  for (int i = 0; i < ncores; i += 0) {
    int core0 = cores[i], n = 0;
    while (i + n < ncores && cores[i + n] / cpd == core0 / cpd) n++;
    uint32_t words[256 * APP_RESULT_WORDS];
    int b = core0 / cpb, x = b % geo.boards_x, y = b / geo.boards_x;
    if (n > 256 || hl_load(h, x, y, core0 % cpb, results + 4u * APP_RESULT_WORDS * (uint32_t)(core0 % cpd), words,
                           (size_t)n * APP_RESULT_WORDS))
      die("hl_load", hl_error(h));
    for (int c = 0; c < n; c++)
      right += words[c * APP_RESULT_WORDS] == APP_RESULT(hl_to_addr(h, x, y, (core0 + c) % cpb, 0));
    i += n;
  }
  snprintf(why, sizeof why, "%d of %d", right, ncores);
  check(right == ncores, "hl_load read back every core's result (%s)", why);
  hl_close(h);
  free(cores);
  free(thread_addr);
  free(thread_index);
  return failures != 0;
}
