/*
 * op_profile.c: OP2's op_profile_* timing tree.
 *
 * A program names its root with op_profile_start, opens and closes named
 * sections with op_profile_enter/op_profile_next/op_profile_exit (a section
 * entered again under the same parent is the same node: its call count
 * grows), closes everything with op_profile_end and prints the tree with
 * op_profile_output. Each op_par_loop is a kernel section
 * "<loop>/<target>/Direct" or ".../Indirect" under the innermost open
 * section (op_rt_loop_enter/exit call op_profile_loop_begin/end).
 *
 * OP_PROFILE_LEVEL (read by op_profile_start): 0 off (every call a no-op),
 * 1 (the default) the program's own sections only, 2 adds a kernel section
 * per loop, 3 adds the sections inside each kernel ("MPI Exchanges",
 * "Computation", "MPI Wait", "MPI Reduce" for loops with a reduction: the
 * names OP2's generated loops use, so trees compare across the two).
 * OP_PROFILE_JSON_OUTPUT=FILE: op_profile_output also writes the tree to
 * FILE as JSON, in OP2's layout: each node an object with the keys
 * "children" (array of nodes), "clock" ({"max", "min", "n", "total"}, times
 * in integer nanoseconds), "name", "num_ranks" (1) and "type" (0 a section,
 * 1 a kernel), keys in that order, no white space, no final newline.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "op_internal.h"

typedef struct PNode {
  char *name;
  int kernel;             /* 1: a loop's kernel section */
  long long n;            /* completed visits */
  int64_t total, min, max; /* nanoseconds */
  struct PNode **kids;
  int nkids;
} PNode;

typedef struct {
  PNode *node;
  int64_t t0;
} Frame;

static struct {
  int level;       /* 0..3; 1 until op_profile_start reads OP_PROFILE_LEVEL */
  int started, finished;
  PNode *root;
  Frame *stack;
  int depth, cap;
  int skipped;     /* sections entered below what the level times */
  const char *target;
} prof = {.level = 1, .target = "seq"};

static void op_profile_free(void);

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static PNode *new_node(const char *name, int kernel) {
  PNode *p = op_xcalloc(1, sizeof(*p), "a profile section");
  p->name = op_xstrdup(name ? name : "(null)");
  p->kernel = kernel;
  return p;
}

/* The child of parent called name, made on first use. */
static PNode *child(PNode *parent, const char *name, int kernel) {
  for (int i = 0; i < parent->nkids; i++)
    if (strcmp(parent->kids[i]->name, name) == 0)
      return parent->kids[i];
  PNode **grown = realloc(parent->kids, sizeof(*grown) * ((size_t)parent->nkids + 1));
  if (!grown)
    op_fatal("out of memory adding profile section \"%s\"", name);
  parent->kids = grown;
  return parent->kids[parent->nkids++] = new_node(name, kernel);
}

static void push(PNode *node) {
  if (prof.depth == prof.cap) {
    prof.cap = prof.cap ? 2 * prof.cap : 16;
    Frame *grown = realloc(prof.stack, sizeof(*grown) * (size_t)prof.cap);
    if (!grown)
      op_fatal("out of memory nesting profile sections");
    prof.stack = grown;
  }
  prof.stack[prof.depth++] = (Frame){node, now_ns()};
}

static void pop(void) {
  Frame *f = &prof.stack[--prof.depth];
  int64_t d = now_ns() - f->t0;
  PNode *p = f->node;
  if (p->n == 0 || d < p->min)
    p->min = d;
  if (p->n == 0 || d > p->max)
    p->max = d;
  p->total += d;
  p->n++;
}

/* The program's calls must come between op_profile_start and op_profile_end. */
static int usable(const char *fn, const char *name) {
  if (prof.level == 0)
    return 0;
  if (!prof.started)
    op_fatal("%s(%s%s%s): op_profile_start has not been called", fn, name ? "\"" : "",
             name ? name : "", name ? "\"" : "");
  if (prof.finished)
    op_fatal("%s(%s%s%s): called after op_profile_end", fn, name ? "\"" : "", name ? name : "",
             name ? "\"" : "");
  return 1;
}

void op_profile_start(const char *name) {
  if (prof.started)
    op_fatal("op_profile_start(\"%s\"): profiling was already started as \"%s\"", name ? name : "(null)",
             prof.root ? prof.root->name : "(disabled)");
  const char *lv = getenv("OP_PROFILE_LEVEL");
  if (lv) {
    char *end;
    errno = 0;
    long v = strtol(lv, &end, 10);
    if (end == lv || errno || v < 0 || v > 3)
      printf("warning: OP_PROFILE_LEVEL set to unsupported value: %s\n", lv);
    else
      prof.level = (int)v;
  }
  if (prof.level == 0)
    return;
  prof.started = 1;
  atexit(op_profile_free);
  prof.root = new_node(name, 0);
  push(prof.root);
}

static void enter(const char *name) {
  PNode *top = prof.stack[prof.depth - 1].node;
  if (prof.skipped || (prof.level < 3 && top->kernel)) {
    prof.skipped++;
    return;
  }
  push(child(top, name ? name : "(null)", 0));
}

static void leave(void) {
  if (prof.skipped) {
    prof.skipped--;
    return;
  }
  pop();
}

void op_profile_enter(const char *name) {
  if (!usable("op_profile_enter", name))
    return;
  if (prof.depth == 0)
    op_fatal("op_profile_enter(\"%s\"): every section is closed, the root too", name ? name : "(null)");
  enter(name);
}

void op_profile_enter_kernel(const char *name, const char *target, const char *variant) {
  if (!usable("op_profile_enter_kernel", name))
    return;
  if (prof.depth == 0)
    op_fatal("op_profile_enter_kernel(\"%s\"): every section is closed, the root too", name ? name : "(null)");
  if (prof.level < 2 || prof.skipped) {
    prof.skipped++;
    return;
  }
  char full[512];
  snprintf(full, sizeof(full), "%s/%s/%s", name ? name : "(null)", target ? target : "(null)",
           variant ? variant : "(null)");
  PNode *top = prof.stack[prof.depth - 1].node;
  if (top->kernel && prof.level < 3) {
    prof.skipped++;
    return;
  }
  PNode *k = child(top, full, 1);
  k->kernel = 1;
  push(k);
}

void op_profile_exit(void) {
  if (!usable("op_profile_exit", NULL))
    return;
  if (prof.depth == 0 && !prof.skipped)
    op_fatal("op_profile_exit: no section is open");
  leave();
}

void op_profile_next(const char *name) {
  if (!usable("op_profile_next", name))
    return;
  if (prof.depth == 0 && !prof.skipped)
    op_fatal("op_profile_next(\"%s\"): no section is open", name ? name : "(null)");
  leave();
  if (prof.depth == 0)
    op_fatal("op_profile_next(\"%s\"): it closed the root", name ? name : "(null)");
  enter(name);
}

void op_profile_end(void) {
  if (!usable("op_profile_end", NULL))
    return;
  prof.skipped = 0;
  while (prof.depth > 0)
    pop();
  prof.finished = 1;
}

/* Loops: a kernel section while the program's profile is open. */
void op_rt_profile_target(const char *target) { prof.target = target ? target : "seq"; }

void op_profile_loop_begin(const char *name, int nargs, const op_arg *args) {
  if (!prof.started || prof.finished || prof.depth == 0 || prof.level < 2)
    return;
  int indirect = 0;
  for (int i = 0; i < nargs; i++)
    if (args[i].map)
      indirect = 1;
  op_profile_enter_kernel(name, prof.target, indirect ? "Indirect" : "Direct");
  if (prof.level >= 3) {
    op_profile_enter("MPI Exchanges");
    op_profile_next("Computation");
  }
}

void op_profile_loop_end(int nargs, const op_arg *args) {
  if (!prof.started || prof.finished || prof.depth == 0 || prof.level < 2)
    return;
  if (prof.level >= 3) {
    op_profile_next("MPI Wait");
    for (int i = 0; i < nargs; i++)
      if (args[i].argtype == OP_ARG_GBL && args[i].opt &&
          (args[i].acc == OP_INC || args[i].acc == OP_MIN || args[i].acc == OP_MAX)) {
        op_profile_next("MPI Reduce");
        break;
      }
    op_profile_exit();
  }
  op_profile_exit();
}

/* A duration in w characters: seconds, ms, us or ns, as many decimals as fit. */
static void fmt_dur(char *out, size_t size, int64_t ns, int w) {
  static const char *units[] = {"s", "ms", "us", "ns"};
  double v = (double)ns * 1e-9;
  int u = 0;
  while (u < 3 && v < 1.0) {
    v *= 1000.0;
    u++;
  }
  int room = w - (int)strlen(units[u]);
  int whole = 1;
  for (double x = v; x >= 10.0; x /= 10.0)
    whole++;
  int decimals = room - whole - 1 > 0 ? room - whole - 1 : 0;
  int pad = decimals == 0 && room - whole > 0 ? room - whole : 0;
  char buf[96];
  snprintf(buf, sizeof(buf), "%*s%*.*f%s", pad, "", whole, decimals, v, units[u]);
  snprintf(out, size, "%.*s", w, buf);
}

/* "*N total: T" with the percentage of ref's total and, past one visit, average, min and max. */
static void print_clock(const PNode *p, const PNode *ref) {
  char t[32], a[32], lo[32], hi[32];
  fmt_dur(t, sizeof(t), p->total, 7);
  printf("*%lld total: %s", p->n, t);
  if (ref)
    printf(" (%.1f%%)", ref->total > 0 ? 100.0 * (double)p->total / (double)ref->total : 0.0);
  if (p->n > 1) {
    fmt_dur(a, sizeof(a), p->total / p->n, 7);
    fmt_dur(lo, sizeof(lo), p->min, 7);
    fmt_dur(hi, sizeof(hi), p->max, 7);
    printf(" (average: %s, min: %s, max: %s)", a, lo, hi);
  }
  printf("\n");
}

static int has_kernel_kid(const PNode *p) {
  for (int i = 0; i < p->nkids; i++)
    if (p->kids[i]->kernel)
      return 1;
  return 0;
}

/* The sections that are not kernels, indented by depth. */
static void print_sections(const PNode *p, int indent) {
  printf("%*s%s ", indent, "", p->name);
  print_clock(p, NULL);
  for (int i = 0; i < p->nkids; i++)
    if (!p->kids[i]->kernel)
      print_sections(p->kids[i], indent + 4);
}

static void print_tree(const PNode *p, int indent, const PNode *ref) {
  printf("%*s%s ", indent, "", p->name);
  print_clock(p, ref);
  for (int i = 0; i < p->nkids; i++)
    print_tree(p->kids[i], indent + 4, ref ? ref : p);
}

static int by_total_desc(const void *a, const void *b) {
  const PNode *x = *(PNode *const *)a, *y = *(PNode *const *)b;
  return (x->total < y->total) - (x->total > y->total);
}

static const PNode *find_kid(const PNode *p, const char *name) {
  for (int i = 0; i < p->nkids; i++)
    if (strcmp(p->kids[i]->name, name) == 0)
      return p->kids[i];
  return NULL;
}

/* One table per section with kernels in it: the path, then a row per kernel. */
static void print_kernels(const PNode *p, char *path, size_t pathlen, int width) {
  size_t at = strlen(path);
  snprintf(path + at, pathlen - at, "%s%s", at ? "/" : "", p->name);
  if (has_kernel_kid(p)) {
    printf("%s%*s     num    total      avg      min      max%s\n", path, width + 4 - (int)strlen(path), "",
           prof.level >= 3 ? "    %kern" : "");
    const PNode **ks = op_xcalloc((size_t)p->nkids, sizeof(*ks), "a profile table");
    int nk = 0;
    for (int i = 0; i < p->nkids; i++)
      if (p->kids[i]->kernel)
        ks[nk++] = p->kids[i];
    qsort(ks, (size_t)nk, sizeof(*ks), by_total_desc);
    for (int i = 0; i < nk; i++) {
      if (i == 20) {
        printf("    (%d more)\n", nk - 20);
        break;
      }
      const PNode *k = ks[i];
      char t[32], a[32], lo[32], hi[32], pct[32] = "";
      fmt_dur(t, sizeof(t), k->total, 7);
      fmt_dur(a, sizeof(a), k->n ? k->total / k->n : 0, 7);
      fmt_dur(lo, sizeof(lo), k->min, 7);
      fmt_dur(hi, sizeof(hi), k->max, 7);
      if (prof.level >= 3) {
        const PNode *c = find_kid(k, "Computation");
        int64_t ct = c ? c->total : 0;
        snprintf(pct, sizeof(pct), "    %5.1f", k->total > 0 ? 100.0 * (double)ct / (double)k->total : 0.0);
      }
      printf("    %s%*s    %8lld  %s  %s  %s  %s%s\n", k->name, width - ((int)strlen(k->name) + 4), "", k->n, t,
             a, lo, hi, pct);
    }
    printf("\n");
    if (prof.level >= 3)
      for (int i = 0; i < nk && i < 4; i++) {
        print_tree(ks[i], 4, NULL);
        printf("\n");
      }
    free(ks);
  }
  for (int i = 0; i < p->nkids; i++)
    if (!p->kids[i]->kernel)
      print_kernels(p->kids[i], path, pathlen, width);
  path[at] = '\0';
}

/* The widest path of a section with kernels, or kernel name + 4. */
static int table_width(const PNode *p, int pathlen) {
  int here = pathlen + (int)strlen(p->name) + 1, w = 0;
  if (has_kernel_kid(p)) {
    w = here;
    for (int i = 0; i < p->nkids; i++)
      if ((int)strlen(p->kids[i]->name) + 4 > w)
        w = (int)strlen(p->kids[i]->name) + 4;
  }
  for (int i = 0; i < p->nkids; i++)
    if (!p->kids[i]->kernel) {
      int c = table_width(p->kids[i], here);
      if (c > w)
        w = c;
    }
  return w;
}

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
    switch (*c) {
    case '"': fputs("\\\"", f); break;
    case '\\': fputs("\\\\", f); break;
    case '\b': fputs("\\b", f); break;
    case '\f': fputs("\\f", f); break;
    case '\n': fputs("\\n", f); break;
    case '\r': fputs("\\r", f); break;
    case '\t': fputs("\\t", f); break;
    default:
      if (*c < 0x20)
        fprintf(f, "\\u%04x", *c);
      else
        fputc(*c, f);
    }
  }
  fputc('"', f);
}

static void json_node(FILE *f, const PNode *p) {
  fputs("{\"children\":[", f);
  for (int i = 0; i < p->nkids; i++) {
    if (i)
      fputc(',', f);
    json_node(f, p->kids[i]);
  }
  fprintf(f, "],\"clock\":{\"max\":%lld,\"min\":%lld,\"n\":%lld,\"total\":%lld},\"name\":", (long long)p->max,
          (long long)p->min, p->n, (long long)p->total);
  json_string(f, p->name);
  fprintf(f, ",\"num_ranks\":1,\"type\":%d}", p->kernel);
}

static int finished_for(const char *fn) {
  if (prof.level == 0)
    return 0;
  if (!prof.started)
    op_fatal("%s: op_profile_start has not been called", fn);
  if (!prof.finished)
    op_fatal("%s: call op_profile_end first", fn);
  return 1;
}

void op_profile_output_json(const char *filename) {
  if (!finished_for("op_profile_output_json"))
    return;
  FILE *f = filename ? fopen(filename, "w") : NULL;
  if (!f) {
    printf("Unable to open timing JSON output file: %s (%s)\n", filename ? filename : "(null)", strerror(errno));
    return;
  }
  printf("Writing timing JSON to: %s\n", filename);
  json_node(f, prof.root);
  if (fclose(f) != 0)
    printf("Unable to write timing JSON output file: %s (%s)\n", filename, strerror(errno));
}

void op_profile_output(void) {
  if (!finished_for("op_profile_output"))
    return;
  print_sections(prof.root, 0);
  printf("\n");
  int width = table_width(prof.root, 0);
  char path[4096] = "";
  print_kernels(prof.root, path, sizeof(path), width);
  const char *json = getenv("OP_PROFILE_JSON_OUTPUT");
  if (json)
    op_profile_output_json(json);
}

static void free_node(PNode *p) {
  for (int i = 0; i < p->nkids; i++)
    free_node(p->kids[i]);
  free(p->kids);
  free(p->name);
  free(p);
}

static void op_profile_free(void) {
  if (prof.root)
    free_node(prof.root);
  free(prof.stack);
  memset(&prof, 0, sizeof(prof));
  prof.level = 1;
  prof.target = "seq";
}
