/* tsim_preload.c: read a tsim --preload file (tsim_preload.h, sim/README.md
   "Preload") into the run before the first cycle: per core pair code,
   memory bytes, and which threads start where. Model-only: real Tinsel
   loads through the boot loader. */
#include "tsim_preload.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
  unsigned npairs, ncores;
  uint32_t **pair;    /* [npairs]: own image or NULL */
  uint32_t *entry;    /* [ncores] */
  uint32_t *mask;     /* [ncores]: 0 = not listed */
} pl;

static int error_at(const char *path, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int error_at(const char *path, size_t off, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "tsim: %s:%zu: error: ", path, off);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return -1;
}

static uint32_t word_at(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The whole file, or NULL after an error. */
static uint8_t *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "tsim: %s: error: cannot open the preload file: %s\n", path, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  for (;;) {
    if (!buf) break;
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    uint8_t *bigger = realloc(buf, cap * 2);
    if (!bigger) { free(buf); buf = NULL; break; }
    buf = bigger;
    cap *= 2;
  }
  int bad = ferror(f);
  fclose(f);
  if (!buf || bad) {
    fprintf(stderr, "tsim: %s: error: cannot read the preload file%s\n", path, buf ? "" : " (out of memory)");
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

static int apply_code(const char *path, size_t off, const TsimPreloadRun *r, uint32_t core, uint32_t addr,
                      const uint8_t *p, uint32_t size) {
  uint64_t end = (uint64_t)addr + size, limit = 4ull * r->imem_words;
  if ((addr & 3) || (size & 3))
    return error_at(path, off, "code at 0x%08x, %u bytes, is not whole aligned words", addr, size);
  if (end > limit)
    return error_at(path, off, "code [0x%08x, 0x%08llx) for core %u lies beyond the instruction memory [0, 0x%llx)",
                    addr, (unsigned long long)end, core, (unsigned long long)limit);
  unsigned pair = core / r->cores_per_pair;
  if (!pl.pair[pair]) {
    pl.pair[pair] = malloc(4ull * r->imem_words);
    if (!pl.pair[pair]) return error_at(path, off, "out of memory");
    memcpy(pl.pair[pair], r->base_imem, 4ull * r->imem_words);
  }
  for (uint32_t i = 0; i < size; i += 4) pl.pair[pair][(addr + i) / 4] = word_at(p + i);
  return 0;
}

static int apply_data(const char *path, size_t off, const TsimPreloadRun *r, uint32_t core, uint32_t addr,
                      const uint8_t *p, uint32_t size) {
  if ((uint64_t)addr + size > 0x100000000ull)
    return error_at(path, off, "data at 0x%08x, %u bytes, runs past the end of the address space", addr, size);
  for (uint32_t i = 0; i < size; i++)
    if (r->write_byte(core, addr + i, p[i]))
      return error_at(path, off, "data address 0x%08x (core %u) is in no memory region", addr + i, core);
  return 0;
}

static int apply_start(const char *path, size_t off, const TsimPreloadRun *r, uint32_t core, uint32_t entry,
                       const uint8_t *p, uint32_t size) {
  if (size != 4) return error_at(path, off, "a start record carries a 4-byte thread mask, not %u bytes", size);
  uint32_t mask = word_at(p), all = r->threads_per_core >= 32 ? ~0u : (1u << r->threads_per_core) - 1;
  if (!mask || (mask & ~all))
    return error_at(path, off, "thread mask 0x%x of core %u is empty or names threads beyond %u", mask, core,
                    r->threads_per_core - 1);
  if ((entry & 3) || entry >= 4ull * r->imem_words)
    return error_at(path, off, "entry 0x%08x of core %u is outside the instruction memory [0, 0x%x)", entry, core,
                    4 * r->imem_words);
  pl.entry[core] = entry;
  pl.mask[core] = mask;
  return 0;
}

int tsim_preload_load(const char *path, const TsimPreloadRun *r) {
  size_t len;
  uint8_t *buf = read_all(path, &len);
  if (!buf) return -1;
  tsim_preload_free();
  pl.ncores = r->cores;
  pl.npairs = (r->cores + r->cores_per_pair - 1) / r->cores_per_pair;
  pl.pair = calloc(pl.npairs, sizeof *pl.pair);
  pl.entry = calloc(r->cores, sizeof *pl.entry);
  pl.mask = calloc(r->cores, sizeof *pl.mask);
  int rc = 0;
  if (!pl.pair || !pl.entry || !pl.mask) rc = error_at(path, 0, "out of memory");
  else if (len < TSIM_PRELOAD_MAGIC_BYTES || memcmp(buf, TSIM_PRELOAD_MAGIC, TSIM_PRELOAD_MAGIC_BYTES))
    rc = error_at(path, 0, "not a preload file (it must begin with \"%s\")", TSIM_PRELOAD_MAGIC);
  for (size_t off = TSIM_PRELOAD_MAGIC_BYTES; !rc && off < len;) {
    if (len - off < TSIM_PRELOAD_HEADER_BYTES) {
      rc = error_at(path, off, "truncated record header (%zu of %d bytes)", len - off, TSIM_PRELOAD_HEADER_BYTES);
      break;
    }
    const uint8_t *h = buf + off;
    uint32_t kind = word_at(h), core = word_at(h + 4), addr = word_at(h + 8), size = word_at(h + 12);
    size_t padded = ((size_t)size + 3) & ~(size_t)3;
    if (padded > len - off - TSIM_PRELOAD_HEADER_BYTES)
      rc = error_at(path, off, "record of %u bytes is cut short: the file has %zu more", size,
                    len - off - TSIM_PRELOAD_HEADER_BYTES);
    else if (core >= r->cores)
      rc = error_at(path, off, "core %u is out of range (this run has %u cores)", core, r->cores);
    else if (kind == TSIM_PRELOAD_CODE)
      rc = apply_code(path, off, r, core, addr, h + TSIM_PRELOAD_HEADER_BYTES, size);
    else if (kind == TSIM_PRELOAD_DATA)
      rc = apply_data(path, off, r, core, addr, h + TSIM_PRELOAD_HEADER_BYTES, size);
    else if (kind == TSIM_PRELOAD_START)
      rc = apply_start(path, off, r, core, addr, h + TSIM_PRELOAD_HEADER_BYTES, size);
    else
      rc = error_at(path, off, "unknown record kind %u (expected 1 code, 2 data or 3 start)", kind);
    off += TSIM_PRELOAD_HEADER_BYTES + padded;
  }
  free(buf);
  return rc;
}

const uint32_t *tsim_preload_pair(unsigned pair) { return pair < pl.npairs ? pl.pair[pair] : NULL; }

int tsim_preload_start(unsigned core, uint32_t *entry, uint32_t *mask) {
  if (core >= pl.ncores || !pl.mask[core]) return 0;
  *entry = pl.entry[core];
  *mask = pl.mask[core];
  return 1;
}

void tsim_preload_free(void) {
  for (unsigned i = 0; pl.pair && i < pl.npairs; i++) free(pl.pair[i]);
  free(pl.pair);
  free(pl.entry);
  free(pl.mask);
  memset(&pl, 0, sizeof pl);
}
