/*
 * tsim_preload_write.c: writing a tsim --preload file: the magic, then one
 * record per call, {kind, core, addr, size} and the payload padded to words
 * (sim/tsim_preload.h).
 */
#include "tsim_preload_write.h"

#include <errno.h>
#include <string.h>

#include "tsim_preload.h"

int op2t_preload_open(op2t_preload *p, const char *path) {
  memset(p, 0, sizeof(*p));
  p->f = fopen(path, "wb");
  if (!p->f)
    return -1;
  if (fwrite(TSIM_PRELOAD_MAGIC, 1, TSIM_PRELOAD_MAGIC_BYTES, p->f) != TSIM_PRELOAD_MAGIC_BYTES)
    p->failed = 1;
  p->bytes = TSIM_PRELOAD_MAGIC_BYTES;
  return 0;
}

static void put_word(uint8_t *dst, uint32_t w) {
  for (int i = 0; i < 4; i++)
    dst[i] = (uint8_t)(w >> (8 * i));
}

static void record(op2t_preload *p, uint32_t kind, uint32_t core, uint32_t addr, const void *bytes, uint32_t len) {
  uint8_t head[TSIM_PRELOAD_HEADER_BYTES], pad[4] = {0};
  put_word(head, kind);
  put_word(head + 4, core);
  put_word(head + 8, addr);
  put_word(head + 12, len);
  uint32_t padding = (4 - len % 4) % 4;
  if (fwrite(head, 1, sizeof(head), p->f) != sizeof(head) || (len && fwrite(bytes, 1, len, p->f) != len) ||
      (padding && fwrite(pad, 1, padding, p->f) != padding))
    p->failed = 1;
  p->bytes += sizeof(head) + len + padding;
}

void op2t_preload_code(op2t_preload *p, uint32_t core, uint32_t addr, const void *bytes, uint32_t len) {
  record(p, TSIM_PRELOAD_CODE, core, addr, bytes, len);
}

void op2t_preload_data(op2t_preload *p, uint32_t core, uint32_t addr, const void *bytes, uint32_t len) {
  record(p, TSIM_PRELOAD_DATA, core, addr, bytes, len);
}

void op2t_preload_start(op2t_preload *p, uint32_t core, uint32_t entry, uint32_t mask) {
  uint8_t m[4];
  put_word(m, mask);
  record(p, TSIM_PRELOAD_START, core, entry, m, 4);
}

int op2t_preload_close(op2t_preload *p) {
  int failed = p->failed || ferror(p->f);
  int saved = errno;
  if (fclose(p->f) != 0)
    failed = 1;
  else if (failed)
    errno = saved ? saved : EIO;
  p->f = NULL;
  return failed ? -1 : 0;
}
