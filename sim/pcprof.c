/* pcprof.c: build/bin/pcprof, the report on a tsim --pc-profile file
   (sim/README.md "Profile per pc"): per image, the instructions retired in
   each function (FUNC symbols of the ELF), sorted, and with --pcs per pc
   with the instruction's mnemonic (tsim_decode.c).

   Which image a core ran: --elf FILE:CORES names it; otherwise, per run
   block and core, the --elf FILE (without CORES) whose code at the core's
   pcs is the words the profile recorded there, for the most of its
   instructions (the first given when several match as well). */
#define _POSIX_C_SOURCE 200809L
#include "elf32.h"
#include "pcprof_parse.h"
#include "tsim_decode.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "usage: pcprof PROFILE --elf FILE[:CORES] [--elf FILE[:CORES]]... [--blocks LIST] [--top N] [--pcs]\n"
    "       CORES: run-wide core numbers, e.g. 0-31,64-95 (default: matched by code);\n"
    "       LIST: the profile's blocks (runs) to count, from 1 in file order, e.g. 5 or 2-5 (default: all)\n";

enum { MAX_ELFS = 64 };
#define MAX_PROFILE_BYTES (1ull << 30)

typedef struct {
  uint32_t value, end;     /* [value, end) */
  const char *name;
} Func;

typedef struct {
  const char *path;
  Elf32 e;
  uint8_t *cores;          /* NULL: any core (matched by code); else 1 for the cores named */
  Func *funcs;
  size_t nfuncs;
  uint8_t *ran;            /* cores attributed to it (any block) */
  uint64_t total;
} Image;

static void die(const char *fmt, const char *a, const char *b) {
  fputs("pcprof: ", stderr);
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  exit(1);
}

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) die("out of memory%s%s", "", "");
  return p;
}

/* A core list "0-31,64" into a byte per core below PCPROF_MAX_CORES. 0 or -1. */
static int core_list(const char *s, uint8_t *set) {
  if (!*s) return -1;
  while (*s) {
    char *end;
    if (*s < '0' || *s > '9') return -1;
    unsigned long a = strtoul(s, &end, 10), b = a;
    if (*end == '-') {
      if (end[1] < '0' || end[1] > '9') return -1;
      b = strtoul(end + 1, &end, 10);
    }
    if (a > b || b >= PCPROF_MAX_CORES || (*end && *end != ',') || (*end == ',' && !end[1])) return -1;
    for (unsigned long c = a; c <= b; c++) set[c] = 1;
    s = *end ? end + 1 : end;
  }
  return 0;
}

static int by_value(const void *a, const void *b) {
  const Func *x = a, *y = b;
  return x->value < y->value ? -1 : x->value > y->value ? 1 : strcmp(x->name, y->name);
}

static void load_image(Image *im) {
  char err[512];
  if (elf32_load(im->path, &im->e, err, sizeof err)) die("%s%s", err, "");
  im->funcs = xcalloc(im->e.nsyms, sizeof *im->funcs);
  for (uint32_t i = 0; i < im->e.nsyms; i++) {
    Elf32Sym s;
    elf32_sym(&im->e, i, &s);
    if (s.type == ELF32_STT_FUNC && s.defined && *s.name)
      im->funcs[im->nfuncs++] = (Func){s.value, s.value + s.size, s.name};
  }
  if (!im->nfuncs)
    fprintf(stderr, "pcprof: %s: no function symbols (stripped?): its pcs count as outside any function\n", im->path);
  qsort(im->funcs, im->nfuncs, sizeof *im->funcs, by_value);
  /* A function of size 0 (assembly without .size) reaches to the next one. */
  for (size_t i = 0; i < im->nfuncs; i++)
    if (im->funcs[i].end == im->funcs[i].value)
      im->funcs[i].end = i + 1 < im->nfuncs ? im->funcs[i + 1].value : im->funcs[i].value + 4;
}

static const char OUTSIDE[] = "(outside any function)", DIFFERS[] = "(not this image's code: the word differs)";

/* The function of IM holding PC, or OUTSIDE. */
static const char *func_at(const Image *im, uint32_t pc) {
  size_t lo = 0, hi = im->nfuncs;
  while (lo < hi) {  /* the first function starting after pc */
    size_t mid = (lo + hi) / 2;
    if (im->funcs[mid].value <= pc) lo = mid + 1;
    else hi = mid;
  }
  for (size_t i = lo; i-- > 0;)  /* the latest-starting one that holds it */
    if (pc < im->funcs[i].end) return im->funcs[i].name;
  return OUTSIDE;
}

static int matches(const Image *im, const PcRow *r) {
  uint32_t w;
  return !elf32_code_word(&im->e, r->pc, &w) && w == r->word;
}

/* "0-3,8" for the cores set in SET (N of them). */
static void print_cores(FILE *f, const uint8_t *set, unsigned n) {
  int first = 1;
  for (unsigned c = 0; c < n; c++) {
    if (!set[c]) continue;
    unsigned d = c;
    while (d + 1 < n && set[d + 1]) d++;
    fprintf(f, "%s%u", first ? "" : ",", c);
    if (d > c) fprintf(f, "-%u", d);
    first = 0;
    c = d;
  }
  if (first) fputs("none", f);
}

typedef struct {
  uint32_t pc, word;
  uint64_t count;
  int differs;
} PcCount;

typedef struct {
  const char *name;
  uint64_t count;
  uint64_t mem;   /* of them loads and stores (to the scratchpad or through the data cache) */
} FuncCount;

/* Is WORD a load or a store (integer or float)? */
static int is_mem(uint32_t word) {
  uint32_t op = word & 0x7fu;
  return op == 0x03 || op == 0x07 || op == 0x23 || op == 0x27;
}

static int by_pc(const void *a, const void *b) {
  const PcCount *x = a, *y = b;
  return x->pc != y->pc ? (x->pc < y->pc ? -1 : 1) : x->differs - y->differs;
}

static int by_count(const void *a, const void *b) {
  const FuncCount *x = a, *y = b;
  if (x->count != y->count) return x->count > y->count ? -1 : 1;
  return strcmp(x->name, y->name);
}

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }

/* The report of image IM from the rows attributed to it (OWNER[i] == K). */
static void report(const Image *im, unsigned k, const PcProfile *p, const int *owner, unsigned top, int pcs) {
  size_t n = 0;
  for (size_t i = 0; i < p->nrows; i++) n += owner[i] == (int)k;
  PcCount *pcv = xcalloc(n, sizeof *pcv);
  size_t m = 0;
  for (size_t i = 0; i < p->nrows; i++)
    if (owner[i] == (int)k) pcv[m++] = (PcCount){p->rows[i].pc, p->rows[i].word, p->rows[i].count, !matches(im, &p->rows[i])};
  qsort(pcv, m, sizeof *pcv, by_pc);
  size_t u = 0;  /* one entry per pc (and per differing word) */
  for (size_t i = 0; i < m; i++)
    if (u && pcv[u - 1].pc == pcv[i].pc && pcv[u - 1].differs == pcv[i].differs && pcv[u - 1].word == pcv[i].word)
      pcv[u - 1].count += pcv[i].count;
    else pcv[u++] = pcv[i];
  FuncCount *fc = xcalloc(u, sizeof *fc);
  size_t nf = 0;
  for (size_t i = 0; i < u; i++) {
    const char *name = pcv[i].differs ? DIFFERS : func_at(im, pcv[i].pc);
    size_t j = 0;
    while (j < nf && fc[j].name != name) j++;  /* pcs come in address order: mostly the last one */
    if (j == nf) fc[nf++] = (FuncCount){name, 0, 0};
    fc[j].count += pcv[i].count;
    fc[j].mem += is_mem(pcv[i].word) ? pcv[i].count : 0;
  }
  qsort(fc, nf, sizeof *fc, by_count);
  printf("\n%s: cores ", im->path);
  print_cores(stdout, im->ran, p->max_cores);
  printf(": %llu instructions (%.2f %% of the profile)\n", (unsigned long long)im->total, pct(im->total, p->total));
  printf("  %14s  %6s  %14s  function\n", "instructions", "%", "loads+stores");
  uint64_t rest = 0, rest_mem = 0;
  for (size_t j = 0; j < nf; j++)
    if (!top || j < top)
      printf("  %14llu  %6.2f  %14llu  %s\n", (unsigned long long)fc[j].count, pct(fc[j].count, im->total),
             (unsigned long long)fc[j].mem, fc[j].name);
    else rest += fc[j].count, rest_mem += fc[j].mem;
  if (top && nf > top)
    printf("  %14llu  %6.2f  %14llu  (%zu more function%s)\n", (unsigned long long)rest, pct(rest, im->total),
           (unsigned long long)rest_mem, nf - top, nf - top == 1 ? "" : "s");
  if (pcs) {
    printf("  %10s  %8s  %-9s  %14s  %6s  function\n", "pc", "word", "insn", "instructions", "%");
    for (size_t i = 0; i < u; i++)
      printf("  0x%08x  %08x  %-9s  %14llu  %6.2f  %s\n", pcv[i].pc, pcv[i].word, tsim_mnemonic(pcv[i].word),
             (unsigned long long)pcv[i].count, pct(pcv[i].count, im->total),
             pcv[i].differs ? DIFFERS : func_at(im, pcv[i].pc));
  }
  free(fc);
  free(pcv);
}

/* The run's state at file scope: an early exit leaves it reachable (no leak). */
static Image ims[MAX_ELFS];
static unsigned nim;
static uint8_t *blocks;  /* --blocks: 1 for those counted (index from 1) */
static char *text;       /* the profile's bytes */
static PcProfile p;

static char *read_whole(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  struct stat st;
  if (!f) die("%s: cannot open it: %s", path, strerror(errno));
  if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) die("%s: %s", path, "not a regular file");
  if ((unsigned long long)st.st_size > MAX_PROFILE_BYTES) die("%s: %s", path, "over the 1 GiB limit for a profile");
  char *buf = text = xcalloc((size_t)st.st_size + 1, 1);  /* reachable should it die */
  *len = fread(buf, 1, (size_t)st.st_size, f);
  if (ferror(f)) die("%s: cannot read it: %s", path, strerror(errno));
  fclose(f);
  return buf;
}

int main(int argc, char **argv) {
  const char *profile = NULL;
  unsigned top = 0;
  int pcs = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(usage, stdout);
      return 0;
    }
    if (!strcmp(argv[i], "--pcs")) { pcs = 1; continue; }
    if (!strcmp(argv[i], "--elf") || !strcmp(argv[i], "--top") || !strcmp(argv[i], "--blocks")) {
      if (i + 1 >= argc) { fprintf(stderr, "pcprof: missing value for %s\n%s", argv[i], usage); return 2; }
      const char *v = argv[++i];
      if (!strcmp(argv[i - 1], "--blocks")) {
        free(blocks);
        blocks = xcalloc(PCPROF_MAX_CORES, 1);
        if (core_list(v, blocks) || blocks[0]) {
          fprintf(stderr, "pcprof: --blocks wants block numbers from 1, e.g. 5 or 2-5,7, not \"%s\"\n%s", v, usage);
          return 2;
        }
        continue;
      }
      if (!strcmp(argv[i - 1], "--top")) {
        char *end;
        unsigned long t = strtoul(v, &end, 10);
        if (*end || !*v || v[0] == '-' || t == 0 || t > 1000000) {
          fprintf(stderr, "pcprof: --top wants a number of functions from 1 to 1000000, not \"%s\"\n%s", v, usage);
          return 2;
        }
        top = (unsigned)t;
        continue;
      }
      if (nim == MAX_ELFS) { fprintf(stderr, "pcprof: more than %d --elf images\n", MAX_ELFS); return 2; }
      Image *im = &ims[nim++];
      im->path = v;
      const char *colon = strrchr(v, ':');
      if (colon) {  /* FILE:CORES when what follows the last colon is a core list */
        uint8_t *set = xcalloc(PCPROF_MAX_CORES, 1);
        if (!core_list(colon + 1, set)) {
          char *path = xcalloc((size_t)(colon - v) + 1, 1);
          memcpy(path, v, (size_t)(colon - v));
          im->path = path;
          im->cores = set;
        } else free(set);
      }
      continue;
    }
    if (argv[i][0] == '-' && argv[i][1]) { fprintf(stderr, "pcprof: unknown option %s\n%s", argv[i], usage); return 2; }
    if (profile) { fprintf(stderr, "pcprof: more than one profile (%s, %s)\n%s", profile, argv[i], usage); return 2; }
    profile = argv[i];
  }
  if (!profile || !nim) { fprintf(stderr, "pcprof: %s\n%s", profile ? "no --elf image" : "no profile", usage); return 2; }
  for (unsigned k = 0; k < nim; k++)
    for (unsigned j = 0; j < k && ims[k].cores; j++)
      for (unsigned c = 0; ims[j].cores && c < PCPROF_MAX_CORES; c++)
        if (ims[j].cores[c] && ims[k].cores[c]) {
          fprintf(stderr, "pcprof: core %u is given two images (%s and %s)\n", c, ims[j].path, ims[k].path);
          return 2;
        }

  size_t len;
  char err[512];
  text = read_whole(profile, &len);
  if (pcprof_parse(profile, text, len, &p, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  free(text);
  text = NULL;
  for (unsigned k = 0; k < nim; k++) {
    load_image(&ims[k]);
    ims[k].ran = xcalloc(p.max_cores, 1);
  }
  /* Only the blocks asked for. */
  if (blocks) {
    size_t m = 0;
    p.total = 0;
    for (size_t i = 0; i < p.nrows; i++)
      if (p.rows[i].block + 1 < PCPROF_MAX_CORES && blocks[p.rows[i].block + 1]) {
        p.total += p.rows[i].count;
        p.rows[m++] = p.rows[i];
      }
    p.nrows = m;
    for (unsigned b = p.nblocks + 1; b < PCPROF_MAX_CORES; b++)
      if (blocks[b]) {
        fprintf(stderr, "pcprof: %s has %u block%s: there is no block %u (--blocks)\n", profile, p.nblocks, p.nblocks == 1 ? "" : "s", b);
        return 1;
      }
  }
  /* Each block's core: its image. */
  int *owner = xcalloc(p.nrows, sizeof *owner);
  uint8_t *lost = xcalloc(p.max_cores, 1);
  uint64_t lost_n = 0;
  for (size_t i = 0; i < p.nrows;) {
    size_t j = i;
    while (j < p.nrows && p.rows[j].block == p.rows[i].block && p.rows[j].core == p.rows[i].core) j++;
    unsigned core = p.rows[i].core;
    int named = 0, best = -1;
    uint64_t best_score = 0;
    for (unsigned k = 0; k < nim; k++) named |= ims[k].cores && ims[k].cores[core];
    for (unsigned k = 0; k < nim; k++) {
      if (named ? !(ims[k].cores && ims[k].cores[core]) : ims[k].cores != NULL) continue;
      uint64_t score = 0;
      for (size_t r = i; r < j; r++) score += matches(&ims[k], &p.rows[r]) ? p.rows[r].count : 0;
      if (named || score > best_score) {
        best = (int)k;
        best_score = score;
      }
    }
    for (size_t r = i; r < j; r++) {
      owner[r] = best;
      if (best >= 0) ims[best].total += p.rows[r].count;
      else lost_n += p.rows[r].count;
    }
    if (best >= 0) ims[best].ran[core] = 1;
    else lost[core] = 1;
    i = j;
  }
  printf("pcprof: %s: %u block%s%s, %llu instructions\n", profile, p.nblocks, p.nblocks == 1 ? "" : "s",
         blocks ? " (those of --blocks counted)" : "", (unsigned long long)p.total);
  for (unsigned k = 0; k < nim; k++) report(&ims[k], k, &p, owner, top, pcs);
  if (lost_n) {
    printf("\nnot attributed: %llu instructions (%.2f %%) on cores ", (unsigned long long)lost_n, pct(lost_n, p.total));
    print_cores(stdout, lost, p.max_cores);
    printf(": their code is none of the images given\n");
  }
  for (unsigned k = 0; k < nim; k++) {
    if (ims[k].cores) free((char *)ims[k].path);
    free(ims[k].cores);
    free(ims[k].funcs);
    free(ims[k].ran);
    elf32_free(&ims[k].e);
  }
  free(owner);
  free(lost);
  free(blocks);
  pcprof_free(&p);
  return 0;
}
