/*
 * boardgen.c: generate the C header, SV package, linker symbols, Tcl dict
 * and markdown table from the boards/ files, the one source of hardware facts.
 *
 *   boardgen --config tile --header out.h
 *   boardgen --config box --get ThreadsPerBoard
 *   boardgen --tcl boards.tcl             (every configuration)
 *   boardgen --list
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_config.h"
#include "board_emit.h"

#define MAX_CONFIGS 64

static const char usage[] =
    "usage: boardgen [--dir DIR] [--config NAME]... [--header FILE] [--sv FILE]\n"
    "                [--ld FILE] [--tcl FILE] [--markdown FILE] [--get KEY] [--list]\n"
    "  --config NAME   a configuration (boards/NAME.cfg) or a path; repeatable\n"
    "  --header/--sv/--ld FILE   C header, SV package, linker symbols (one config)\n"
    "  --tcl/--markdown FILE     Tcl dict, parameter table (default: every config)\n"
    "  --get KEY       print one value (one config)\n"
    "  --list          print the configuration names in DIR\n"
    "  FILE may be - for standard output\n";

/* The outputs asked for, by option name. */
typedef struct {
  const char *option;
  const char *file;
  int one_config; /* 1: needs exactly one configuration */
} Output;

static Output outputs[] = {
  {"--header", NULL, 1}, {"--sv", NULL, 1}, {"--ld", NULL, 1},
  {"--tcl", NULL, 0}, {"--markdown", NULL, 0},
};
enum { HEADER, SV, LD, TCL, MARKDOWN, NOUTPUTS };

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Fills NAMES with the configurations in DIR, sorted; returns the count. */
static int list_configs(const char *dir, char **names, int max) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  if (!d) {
    fprintf(stderr, "boardgen: cannot read directory %s\n", dir);
    exit(1);
  }
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    char path[4096];
    if (len < 5 || strcmp(e->d_name + len - 4, ".cfg") != 0)
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (!board_config_is_config_file(path))
      continue;
    if (n == max) {
      fprintf(stderr, "boardgen: %s has more than %d configurations\n", dir, max);
      exit(1);
    }
    names[n++] = strndup(e->d_name, len - 4);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, cmp_str);
  return n;
}

static FILE *open_out(const char *file) {
  if (strcmp(file, "-") == 0)
    return stdout;
  FILE *f = fopen(file, "w");
  if (!f) {
    fprintf(stderr, "boardgen: cannot write %s\n", file);
    exit(1);
  }
  return f;
}

static void close_out(FILE *f, const char *file) {
  if (f != stdout && fclose(f) != 0) {
    fprintf(stderr, "boardgen: error writing %s\n", file);
    exit(1);
  }
}

static void write_outputs(BoardConfig **cfgs, int n) {
  for (int i = 0; i < NOUTPUTS; i++) {
    if (!outputs[i].file)
      continue;
    FILE *f = open_out(outputs[i].file);
    switch (i) {
    case HEADER: emit_header(f, cfgs[0]); break;
    case SV: emit_sv(f, cfgs[0]); break;
    case LD: emit_ld(f, cfgs[0]); break;
    case TCL: emit_tcl(f, cfgs, n); break;
    default: emit_markdown(f, cfgs, n); break;
    }
    close_out(f, outputs[i].file);
  }
}

static int print_key(const BoardConfig *cfg, const char *key) {
  const BoardKey *k = board_config_find(cfg, key);
  if (!k) {
    fprintf(stderr, "boardgen: %s: unknown key \"%s\"\n", board_config_name(cfg), key);
    return 1;
  }
  if (k->is_int)
    printf("%lld\n", k->value);
  else
    printf("%s\n", k->text);
  return 0;
}

static int bad_usage(const char *msg, const char *arg) {
  fprintf(stderr, "boardgen: %s%s\n%s", msg, arg ? arg : "", usage);
  return 2;
}

int main(int argc, char **argv) {
  const char *dir = NULL, *get = NULL;
  char *names[MAX_CONFIGS];
  int nnames = 0, list = 0, any_output = 0, one = 0, rc = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int o;
    if (!strcmp(a, "--help") || !strcmp(a, "-h"))
      return fputs(usage, stdout), 0;
    if (!strcmp(a, "--list")) {
      list = 1;
      continue;
    }
    if (i + 1 >= argc)
      return bad_usage(strncmp(a, "--", 2) ? "unexpected argument " : "missing value for ", a);
    for (o = 0; o < NOUTPUTS && strcmp(a, outputs[o].option); o++)
      ;
    if (o < NOUTPUTS) {
      outputs[o].file = argv[++i];
      any_output = 1;
      one |= outputs[o].one_config;
    } else if (!strcmp(a, "--dir"))
      dir = argv[++i];
    else if (!strcmp(a, "--get"))
      get = argv[++i], one = 1;
    else if (!strcmp(a, "--config") && nnames == MAX_CONFIGS)
      return fprintf(stderr, "boardgen: at most %d --config options\n", MAX_CONFIGS), 2;
    else if (!strcmp(a, "--config"))
      names[nnames++] = argv[++i];
    else
      return bad_usage("unknown option ", a);
  }
  if (!dir)
    dir = board_config_default_dir();
  if (list) {
    int n = list_configs(dir, names, MAX_CONFIGS);
    for (int i = 0; i < n; i++)
      printf("%s\n", names[i]), free(names[i]);
    return 0;
  }
  if (!any_output && !get)
    return bad_usage("nothing to do", NULL);
  if (one && nnames != 1)
    return bad_usage("--header, --sv, --ld and --get need exactly one --config", NULL);
  int owned = nnames == 0;
  if (owned)
    nnames = list_configs(dir, names, MAX_CONFIGS);

  BoardConfig *cfgs[MAX_CONFIGS];
  int loaded = 0;
  for (; loaded < nnames; loaded++) {
    char err[1024];
    cfgs[loaded] = board_config_load_dir(dir, names[loaded], err, sizeof err);
    if (!cfgs[loaded]) {
      fprintf(stderr, "boardgen: %s\n", err);
      rc = 1;
      break;
    }
  }
  if (rc == 0 && get)
    rc = print_key(cfgs[0], get);
  else if (rc == 0)
    write_outputs(cfgs, loaded);
  for (int i = 0; i < loaded; i++)
    board_config_free(cfgs[i]);
  for (int i = 0; owned && i < nnames; i++)
    free(names[i]);
  return rc;
}
