// tests/fuzz/boards/fuzz.c: a configuration file of arbitrary bytes,
// loaded as boardgen loads one (board_config_load on a path; its includes
// resolve beside it or in boards/, so "include board" reaches the real
// files), then written as every view boardgen makes, to /dev/null.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "board_config.h"
#include "board_emit.h"

static FILE *sink;
static char dir[64], path[96];

static void clean_up(void) {
  remove(path);
  rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  sink = fopen("/dev/null", "w");
  snprintf(dir, sizeof dir, "/tmp/fuzz-boards-%ld", (long)getpid());
  snprintf(path, sizeof path, "%s/case.cfg", dir);
  atexit(clean_up);
  return sink && (mkdir(dir, 0700) == 0 || access(dir, W_OK) == 0) ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f)) abort();
  char err[1024];
  BoardConfig *cfg = board_config_load(path, err, sizeof err);
  if (cfg) {
    emit_header(sink, cfg);
    emit_sv(sink, cfg);
    emit_ld(sink, cfg);
    emit_tcl(sink, &cfg, 1);
    emit_markdown(sink, &cfg, 1);
    board_config_free(cfg);
  } else if (!err[0]) {
    abort();   // every refusal says why
  }
  board_config_is_config_file(path);
  return 0;
}
