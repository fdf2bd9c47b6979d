/*
 * tsim_spawn.c: the cycle model as a child process, for the sim engine.
 *
 * Makes a fresh directory DIR under $TMPDIR (or /tmp) (op2t_tsim_mkdir; the
 * engine may write DIR/preload there), then starts `tsim --config CFG
 * --hostlink unix:DIR/host --debuglink unix:DIR/debug --stats-file
 * DIR/stats [--delay-seed S] [--imem enlarged] [--preload DIR/preload]`,
 * its output in DIR/tsim.log; the engine then connects to the two sockets. Closing the
 * link ends tsim; stop() waits for it and reads its statistics (`key
 * value` lines, sim/README.md). tsim is $OP2_TINSEL_TSIM, else the one
 * built beside this library (OP2T_TSIM_PATH, set by host/tinsel/rules.mk).
 *
 * SIGINT, SIGTERM and SIGHUP to the program stop the running tsim and
 * remove DIR before the program dies of the signal (unless OP2_TINSEL_KEEP).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "op2t_sim.h"

#ifndef OP2T_TSIM_PATH
#define OP2T_TSIM_PATH "tsim"
#endif

const char *op2t_tsim_path(void) {
  const char *p = getenv("OP2_TINSEL_TSIM");
  return p && *p ? p : OP2T_TSIM_PATH;
}

/* The tsim whose directory exists, for the signal handler. */
static op2t_tsim *volatile live;

/* Async-signal-safe: kill, waitpid, unlink, rmdir, raise. */
static void on_signal(int sig) {
  op2t_tsim *t = live;
  if (t) {
    if (t->pid > 0) {
      kill(t->pid, SIGTERM);
      waitpid(t->pid, NULL, 0);
    }
    if (!t->keep) {
      for (int i = 0; i < OP2T_TSIM_FILES; i++)
        unlink(t->file[i]);
      rmdir(t->dir);
    }
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

static void install_handlers(void) {
  static int done;
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  if (done)
    return;
  done = 1;
  for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
    struct sigaction old, sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* Leave a signal the program was told to ignore (nohup) or handles itself. */
    if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
      sigaction(sigs[i], &sa, NULL);
  }
}

int op2t_tsim_mkdir(op2t_tsim *t) {
  memset(t, 0, sizeof(*t));
  const char *tmp = getenv("TMPDIR");
  snprintf(t->dir, sizeof(t->dir), "%s/op2t-sim-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(t->dir)) {
    fprintf(stderr, "op2 tinsel: cannot make a directory for tsim's sockets (%s): %s\n", t->dir, strerror(errno));
    t->dir[0] = 0;
    return 1;
  }
  snprintf(t->host, sizeof(t->host), "unix:%s/host", t->dir);
  snprintf(t->debug, sizeof(t->debug), "unix:%s/debug", t->dir);
  static const char *const names[OP2T_TSIM_FILES] = {"stats", "tsim.log", "host", "debug", "preload"};
  for (int i = 0; i < OP2T_TSIM_FILES; i++)
    snprintf(t->file[i], sizeof(t->file[i]), "%s/%s", t->dir, names[i]);
  snprintf(t->stats, sizeof(t->stats), "%s", t->file[0]);
  snprintf(t->log, sizeof(t->log), "%s", t->file[1]);
  snprintf(t->preload, sizeof(t->preload), "%s", t->file[4]);
  const char *keep = getenv("OP2_TINSEL_KEEP");
  t->keep = keep && *keep && strcmp(keep, "0") != 0;
  install_handlers();
  live = t;
  return 0;
}

int op2t_tsim_start(op2t_tsim *t, const char *config, const char *delay_seed, int imem_enlarged, int preload) {
  if (!t->dir[0] && op2t_tsim_mkdir(t))
    return 1;
  const char *argv[20];
  int n = 0;
  argv[n++] = op2t_tsim_path();
  argv[n++] = "--config";
  argv[n++] = config;
  argv[n++] = "--hostlink";
  argv[n++] = t->host;
  argv[n++] = "--debuglink";
  argv[n++] = t->debug;
  argv[n++] = "--stats-file";
  argv[n++] = t->stats;
  if (delay_seed && *delay_seed) {
    argv[n++] = "--delay-seed";
    argv[n++] = delay_seed;
  }
  if (imem_enlarged) {
    argv[n++] = "--imem";
    argv[n++] = "enlarged";
  }
  if (preload) {
    argv[n++] = "--preload";
    argv[n++] = t->preload;
  }
  argv[n] = NULL;
  snprintf(t->cmd, sizeof(t->cmd), "%s", argv[0]);
  for (int i = 1; i < n; i++) {
    size_t l = strlen(t->cmd);
    snprintf(t->cmd + l, sizeof(t->cmd) - l, " %s", argv[i]);
  }
  fflush(NULL);
  /* No signal between fork and knowing the child's pid: the handler must see it. */
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGHUP);
  sigprocmask(SIG_BLOCK, &block, &old);
  pid_t pid = fork();
  if (pid < 0) {
    sigprocmask(SIG_SETMASK, &old, NULL);
    fprintf(stderr, "op2 tinsel: cannot start tsim: %s\n", strerror(errno));
    return 1;
  }
  if (pid == 0) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    sigprocmask(SIG_SETMASK, &old, NULL);
    int fd = open(t->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    execv(argv[0], (char *const *)argv);
    fprintf(stderr, "tsim: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  t->pid = pid;
  sigprocmask(SIG_SETMASK, &old, NULL);
  return 0;
}

/* The exit status, or -1 while it runs. */
int op2t_tsim_exited(op2t_tsim *t) {
  if (t->pid <= 0)
    return t->status;
  int st;
  if (waitpid(t->pid, &st, WNOHANG) != t->pid)
    return -1;
  t->pid = 0;
  t->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return t->status;
}

int op2t_tsim_stop(op2t_tsim *t, int wait_s) {
  struct timespec nap = {0, 20 * 1000 * 1000};
  for (int i = 0; i < wait_s * 50 && op2t_tsim_exited(t) < 0; i++)
    nanosleep(&nap, NULL);
  if (op2t_tsim_exited(t) < 0) {
    kill(t->pid, SIGTERM);
    for (int i = 0; i < 100 && op2t_tsim_exited(t) < 0; i++)
      nanosleep(&nap, NULL);
    if (op2t_tsim_exited(t) < 0) {
      kill(t->pid, SIGKILL);
      int st;
      waitpid(t->pid, &st, 0);
      t->pid = 0;
      t->status = 128 + SIGKILL;
    }
  }
  return t->status;
}

void op2t_tsim_log_tail(const op2t_tsim *t, FILE *out, int lines) {
  FILE *f = fopen(t->log, "r");
  if (!f)
    return;
  char **ring = calloc((size_t)lines, sizeof(char *));
  char buf[512];
  long n = 0;
  while (ring && fgets(buf, sizeof(buf), f)) {
    free(ring[n % lines]);
    ring[n % lines] = strdup(buf);
    n++;
  }
  fclose(f);
  for (long i = n > lines ? n - lines : 0; ring && i < n; i++)
    fprintf(out, "  %s", ring[i % lines]);
  for (int i = 0; ring && i < lines; i++)
    free(ring[i]);
  free(ring);
}

void op2t_tsim_cleanup(op2t_tsim *t) {
  if (!t->dir[0])
    return;
  if (live == t)
    live = NULL;
  if (t->keep) {
    fprintf(stderr, "op2 tinsel: tsim's files kept in %s\n", t->dir);
    t->dir[0] = 0;
    return;
  }
  for (int i = 0; i < OP2T_TSIM_FILES; i++)
    unlink(t->file[i]);
  rmdir(t->dir);
  t->dir[0] = 0;
}

/* --- tsim's statistics file: `key value` lines */

int op2t_kv_read(op2t_kv *kv, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return 1;
  char key[128];
  double v;
  while (fscanf(f, "%127s %lf", key, &v) == 2) {
    kv->key = realloc(kv->key, sizeof(char *) * (size_t)(kv->n + 1));
    kv->val = realloc(kv->val, sizeof(double) * (size_t)(kv->n + 1));
    if (!kv->key || !kv->val) {
      fprintf(stderr, "op2 tinsel: out of memory reading %s\n", path);
      exit(1);
    }
    kv->key[kv->n] = strdup(key);
    kv->val[kv->n++] = v;
  }
  fclose(f);
  return 0;
}

double op2t_kv_get(const op2t_kv *kv, const char *key, double dflt) {
  for (int i = kv->n - 1; i >= 0; i--)
    if (!strcmp(kv->key[i], key))
      return kv->val[i];
  return dflt;
}

void op2t_kv_free(op2t_kv *kv) {
  for (int i = 0; i < kv->n; i++)
    free(kv->key[i]);
  free(kv->key);
  free(kv->val);
  memset(kv, 0, sizeof(*kv));
}
