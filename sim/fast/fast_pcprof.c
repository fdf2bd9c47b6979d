/* fast_pcprof.c: see fast_pcprof.h. */
#define _POSIX_C_SOURCE 200809L
#include "fast_pcprof.h"

#include "tsim_args.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int fast_pcprof_start(FastRun *r, const char *path) {
  r->prof_fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (r->prof_fd < 0) {
    fprintf(stderr, "tsim: --pc-profile %s: cannot append to it: %s\n", path, strerror(errno));
    return TSIM_EXIT_USAGE;
  }
  for (unsigned i = r->tile_lo * FAST_NC; i < r->tile_hi * FAST_NC; i++)
    if (!(r->cores[i].prof = calloc(r->imem_words, sizeof(uint64_t)))) {
      fprintf(stderr, "tsim: --pc-profile: out of memory for %u cores' counts (%zu bytes each: one per "
              "instruction memory word)\n", (r->tile_hi - r->tile_lo) * FAST_NC, r->imem_words * sizeof(uint64_t));
      close(r->prof_fd);
      r->prof_fd = -1;
      return TSIM_EXIT_INPUT;
    }
  return 0;
}

/* Write the LEN bytes at BUF to FD whole. 0 or -1 (errno). */
static int write_all(int fd, const char *buf, size_t len) {
  while (len) {
    ssize_t n = write(fd, buf, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    buf += n;
    len -= (size_t)n;
  }
  return 0;
}

int fast_pcprof_write(FastRun *r, const char *path, const char *config, const char *elf, const char *preload,
                      int rank, int ranks) {
  unsigned lo = r->tile_lo * FAST_NC, hi = r->tile_hi * FAST_NC;
  unsigned long long total = 0, rows = 0;
  for (unsigned i = lo; i < hi; i++)
    for (unsigned w = 0; w < r->imem_words; w++)
      if (r->cores[i].prof[w]) {
        total += r->cores[i].prof[w];
        rows++;
      }
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) {
    fprintf(stderr, "tsim: --pc-profile %s: out of memory\n", path);
    return -1;
  }
  fprintf(f, "pc-profile 1 cores=%u cycles=%llu retired=%llu rows=%llu\n", r->ncores, r->cycle, total, rows);
  fprintf(f, "# tsim --engine fast --config %s, rank %d of %d: cores %u-%u\n", config, rank, ranks, lo, hi - 1);
  if (elf) fprintf(f, "# elf %s\n", elf);
  if (preload) fprintf(f, "# preload %s\n", preload);
  for (unsigned i = lo; i < hi; i++) {
    const FastCore *c = &r->cores[i];
    for (unsigned w = 0; w < r->imem_words; w++)
      if (c->prof[w]) fprintf(f, "%u 0x%08x %llu 0x%08x\n", c->id, w << 2, (unsigned long long)c->prof[w], c->image[w]);
  }
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  /* One block at a time in the file: ranks append theirs at once. */
  struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
  int rc = bad ? -1 : 0;
  if (!rc) {
    while ((rc = fcntl(r->prof_fd, F_SETLKW, &lk)) < 0 && errno == EINTR) {}
    if (rc == 0) {
      rc = write_all(r->prof_fd, text, len);
      lk.l_type = F_UNLCK;
      fcntl(r->prof_fd, F_SETLK, &lk);
    }
  }
  if (close(r->prof_fd) != 0) rc = -1;
  r->prof_fd = -1;
  if (rc) fprintf(stderr, "tsim: --pc-profile %s: cannot write the profile: %s\n", path, bad ? "out of memory" : strerror(errno));
  free(text);
  return rc;
}
