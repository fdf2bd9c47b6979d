/*
 * ssrun_hl.c: ssrun's images loaded as on a POETS box (ssrun.h,
 * ssrun_tsim_hostlink): tsim serves the configuration over the host link
 * and the DebugLink (its boot loader on every core), and the host loads
 * the firmware and every thread's image through the boot loader with
 * libhostlink (hl_load_elf, hl_store; the routing tables of a box too),
 * starts every thread (hl_start, hl_go) and reads what the threads print
 * on the DebugLink until the program's last expected line. The same calls
 * drive a real box's HostLink; only the spawning of tsim is the model's.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hostlink.h"
#include "ssrun.h"
#include "tinsel_config.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Core K of the machine (global index): its board's coordinates and its index on the board. */
static void core_at(const PlaceMachine *m, uint32_t k, int *x, int *y, int *c) {
  int per_board = m->mboxes_per_board * m->cores_per_mbox, b = (int)k / per_board;
  *x = b % m->boards_x, *y = b / m->boards_x, *c = (int)k % per_board;
}

/* Whole lines of BUF (LEN bytes) to LINE_FN without the "x:y:c:t: " prefix
 * hl_poll_stdout adds; counts those that start with DONE. Returns the
 * bytes of the last, unfinished line (moved to the front). */
static size_t lines(char *buf, size_t len, const char *done, uint32_t *seen, ssrun_line_fn line_fn, void *ctx) {
  size_t at = 0;
  for (char *nl; (nl = memchr(buf + at, '\n', len - at)); at = (size_t)(nl - buf) + 1) {
    *nl = 0;
    char *text = buf + at;
    for (int colons = 0; colons < 4 && *text; text++) /* "x:y:c:t: " */
      if (*text == ':' && ++colons == 4 && text[1] == ' ')
        text++;
    if (!*text) /* not prefixed: the whole line */
      text = buf + at;
    char line[1100];
    snprintf(line, sizeof(line), "%s\n", text);
    line_fn(ctx, line);
    *seen += !strncmp(text, done, strlen(done));
  }
  memmove(buf, buf + at, len - at);
  return len - at;
}

int ssrun_tsim_hostlink(const char *tsim, const char *config, const char *fw, const ssrun_images *im,
                        const char *delay_seed, const char *done, uint32_t expect, ssrun_line_fn line_fn, void *ctx,
                        char *err, size_t errlen) {
  const PlaceMachine *m = im->m;
  char dir[] = "/tmp/ssrun-hl-XXXXXX", host[64], debug[64], log[64];
  if (!mkdtemp(dir))
    return snprintf(err, errlen, "cannot create a temporary directory: %s", strerror(errno)), -1;
  snprintf(host, sizeof(host), "unix:%s/host", dir), snprintf(debug, sizeof(debug), "unix:%s/debug", dir);
  snprintf(log, sizeof(log), "%s/log", dir);
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0)
    return snprintf(err, errlen, "fork: %s", strerror(errno)), rmdir(dir), -1;
  if (pid == 0) { /* tsim, its output in LOG */
    FILE *f = freopen(log, "w", stdout);
    if (!f || dup2(fileno(stdout), 2) < 0)
      _exit(127);
    if (delay_seed)
      execl(tsim, tsim, "--config", config, "--hostlink", host, "--debuglink", debug, "--delay-seed", delay_seed,
            (char *)NULL);
    else
      execl(tsim, tsim, "--config", config, "--hostlink", host, "--debuglink", debug, (char *)NULL);
    _exit(127);
  }
  int rc = -1, status = 0;
  hostlink *h = NULL;
  char *acc = NULL; /* the threads' output not yet passed on as lines */
  size_t cap = 0;
  hl_geometry geo;
  if (hl_geometry_load(config, &geo, err, errlen) != 0)
    goto out;
  geo.boards_x = m->boards_x, geo.boards_y = m->boards_y;
  for (double t0 = now(); !(h = hl_open(host, debug, &geo, err, errlen));) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      pid = -1;
      snprintf(err + strlen(err), errlen - strlen(err), " (tsim stopped first: see its output below)");
      goto out;
    }
    if (now() - t0 > 60)
      goto out;
    struct timespec nap = {0, 50 * 1000 * 1000};
    nanosleep(&nap, NULL);
  }
  /* The firmware into every core; a box's routing tables into each DRAM
   * (as ssrun_preload places them); every thread's image at its
   * tinselHeapBase, through its own core (hl_start has the boot loaders
   * write their caches back). */
  if (hl_load_elf(h, fw, NULL, 0) != 0)
    goto link_error;
  int per_board = m->mboxes_per_board * m->cores_per_mbox;
  for (uint32_t b = 0; b < im->r->nboards; b++)
    for (int ram = 0; ram < 4; ram++)
      if (im->r->boards[b].len[ram]) {
        int x, y, c;
        core_at(m, b * (uint32_t)per_board + (uint32_t)(ram * (per_board / m->drams_per_board)), &x, &y, &c);
        size_t n = (im->r->boards[b].len[ram] + 3) / 4;
        uint32_t *w = calloc(n + 1, 4);
        if (!w)
          return snprintf(err, errlen, "out of memory"), -1;
        memcpy(w, im->r->boards[b].bytes[ram], im->r->boards[b].len[ram]);
        int st = hl_store(h, x, y, c, m->router_base, w, n);
        free(w);
        if (st != 0)
          goto link_error;
      }
  for (uint32_t th = 0; th < (uint32_t)m->nthreads; th++) {
    uint32_t load = ssrun_heap_base(m, th);
    size_t n = (im->bytes[th] + 3) / 4;
    uint32_t *w = calloc(n + 1, 4);
    if (!w)
      return snprintf(err, errlen, "out of memory"), -1;
    memcpy(w, im->image[th], im->bytes[th]);
    int x, y, c;
    core_at(m, th / (uint32_t)m->threads_per_core, &x, &y, &c);
    int st = hl_store(h, x, y, c, load, w, n);
    free(w);
    if (st != 0)
      goto link_error;
  }
  if (hl_start(h, NULL, 0, m->threads_per_core - 1) != 0 || hl_go(h) != 0)
    goto link_error;
  /* What the threads print, until EXPECT lines that start with DONE (or
   * 120 s without a byte). */
  char *buf = NULL;
  size_t size = 0, keep = 0;
  uint32_t seen = 0;
  double quiet = now();
  while (seen < expect) {
    FILE *mem = open_memstream(&buf, &size);
    if (!mem)
      return snprintf(err, errlen, "out of memory"), -1;
    long got = hl_poll_stdout(h, mem);
    fclose(mem);
    if (got < 0) {
      free(buf);
      goto link_error;
    }
    if (keep + size + 1 > cap) {
      cap = 2 * (keep + size + 1);
      char *n = realloc(acc, cap);
      if (!n)
        return free(buf), snprintf(err, errlen, "out of memory"), -1;
      acc = n;
    }
    memcpy(acc + keep, buf, size);
    keep = lines(acc, keep + size, done, &seen, line_fn, ctx);
    free(buf), buf = NULL;
    if (got > 0)
      quiet = now();
    else if (now() - quiet > 120) {
      snprintf(err, errlen, "%u of %u lines \"%s...\" after 120 s without output", seen, expect, done);
      goto out;
    } else {
      struct timespec nap = {0, 2 * 1000 * 1000};
      nanosleep(&nap, NULL);
    }
  }
  rc = 0;
  goto out;
link_error:
  snprintf(err, errlen, "%s", hl_error(h));
out:
  if (h)
    hl_close(h); /* tsim ends the run when the host closes the link */
  if (pid > 0) {
    for (double t0 = now(); waitpid(pid, &status, WNOHANG) == 0;) {
      if (now() - t0 > 10) {
        kill(pid, SIGTERM);
        waitpid(pid, &status, 0);
        break;
      }
      struct timespec nap = {0, 20 * 1000 * 1000};
      nanosleep(&nap, NULL);
    }
  }
  FILE *f = fopen(log, "r"); /* tsim's own lines: the run's end and totals */
  if (f) {
    char line[1024];
    while (fgets(line, sizeof(line), f))
      if (!strncmp(line, "tsim: cycles", 12) || !strncmp(line, "tsim: total", 11) || !strncmp(line, "tsim: messages", 14) ||
          !strncmp(line, "tsim: hostlink", 14) || strstr(line, "error") || rc != 0)
        fputs(line, stdout);
    fclose(f);
  }
  remove(log);
  free(acc);
  char sock[80];
  snprintf(sock, sizeof(sock), "%s/host", dir), remove(sock);
  snprintf(sock, sizeof(sock), "%s/debug", dir), remove(sock);
  rmdir(dir);
  return rc;
}
