// tests/fuzz/input_file.h: for harnesses whose parser reads a path (op2c's
// front end, --transform scripts): each input is written to a file of the
// given name in a directory of its own, removed at exit.
#ifndef FUZZ_INPUT_FILE_H
#define FUZZ_INPUT_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char fuzz_dir[] = "/tmp/op2-fuzz.XXXXXX";
static char fuzz_path[sizeof fuzz_dir + 32];

static void fuzz_input_cleanup(void) {
  unlink(fuzz_path);
  rmdir(fuzz_dir);
}

// The directory and the file's path; exits if the directory cannot be made.
static void fuzz_input_init(const char *name) {
  if (!mkdtemp(fuzz_dir)) {
    perror("fuzz harness: mkdtemp");
    exit(1);
  }
  snprintf(fuzz_path, sizeof fuzz_path, "%s/%s", fuzz_dir, name);
  atexit(fuzz_input_cleanup);
}

// One input into the file (a failure to write is the harness's, not the input's).
static const char *fuzz_input_write(const uint8_t *data, size_t size) {
  FILE *f = fopen(fuzz_path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
    perror(fuzz_path);
    abort();
  }
  return fuzz_path;
}

#endif
