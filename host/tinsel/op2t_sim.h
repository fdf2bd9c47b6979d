/*
 * op2t_sim.h: the cycle model as a child process (tsim_spawn.c) and its
 * statistics file, for the HostLink engines (engine_hostlink.c).
 */
#ifndef OP2T_SIM_H
#define OP2T_SIM_H

#include <stdio.h>
#include <sys/types.h>

enum { OP2T_TSIM_FILES = 5 };  /* stats, tsim.log, host, debug, preload */

typedef struct {
  pid_t pid;             /* 0 once it has exited */
  int status;            /* its exit status then */
  char dir[200];         /* sockets, statistics and log live here */
  char host[240], debug[240], stats[240], log[240], preload[240];
  char file[OP2T_TSIM_FILES][240]; /* everything tsim or the engine may leave in dir */
  int keep;              /* OP2_TINSEL_KEEP: leave dir for a look */
  char cmd[1200];        /* the command line, for messages */
} op2t_tsim;

const char *op2t_tsim_path(void);
/* Makes the directory (t->preload is where a preload file goes) and installs
 * the SIGINT/SIGTERM/SIGHUP handlers that stop tsim and remove it; 0, or
 * prints why not and returns 1. */
int op2t_tsim_mkdir(op2t_tsim *t);
/* Starts tsim on CONFIG (making the directory unless made), with --preload
 * t->preload if PRELOAD; returns 0, or prints why not and returns 1. */
int op2t_tsim_start(op2t_tsim *t, const char *config, const char *delay_seed, int imem_enlarged, int preload);
int op2t_tsim_exited(op2t_tsim *t);                  /* its status, -1 while it runs */
int op2t_tsim_stop(op2t_tsim *t, int wait_s);        /* waits (then kills); its status */
void op2t_tsim_log_tail(const op2t_tsim *t, FILE *out, int lines);
void op2t_tsim_cleanup(op2t_tsim *t);                /* unless OP2_TINSEL_KEEP=1 */

/* `key value` lines (tsim --stats-file). */
typedef struct {
  char **key;
  double *val;
  int n;
} op2t_kv;
int op2t_kv_read(op2t_kv *kv, const char *path);     /* appends; 1 if unreadable */
double op2t_kv_get(const op2t_kv *kv, const char *key, double dflt);
void op2t_kv_free(op2t_kv *kv);

#endif
