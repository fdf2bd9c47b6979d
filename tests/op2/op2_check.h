/*
 * op2_check.h: the self-check helpers of the OP2 test programs. Each
 * program counts failed checks, prints "<name> PASSED" or "<name> FAILED",
 * and exits non-zero on failure.
 */
#ifndef OP2_CHECK_H
#define OP2_CHECK_H

#include <math.h>
#include <stdio.h>

static int check_failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      check_failures++;                                                        \
      printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);          \
    }                                                                          \
  } while (0)

// Exact comparison where the order of operations is fixed, else relative.
#define CHECK_EQ_D(got, want)                                                  \
  do {                                                                         \
    double g_ = (got), w_ = (want);                                            \
    if (!(g_ == w_)) {                                                         \
      check_failures++;                                                        \
      printf("%s:%d: %s is %.17g, expected %.17g\n", __FILE__, __LINE__, #got, g_, w_); \
    }                                                                          \
  } while (0)

#define CHECK_EQ_I(got, want)                                                  \
  do {                                                                         \
    long long g_ = (got), w_ = (want);                                         \
    if (g_ != w_) {                                                            \
      check_failures++;                                                        \
      printf("%s:%d: %s is %lld, expected %lld\n", __FILE__, __LINE__, #got, g_, w_); \
    }                                                                          \
  } while (0)

static int check_finish(const char *name) {
  printf("%s %s\n", name, check_failures ? "FAILED" : "PASSED");
  return check_failures != 0;
}

#ifdef __cplusplus
#include <fcntl.h>
#include <string>
#include <unistd.h>

// What fn prints, kept out of stdout (text whose times vary from run to
// run: tests/tinsel/run.sh compares a program's output with seq's).
static std::string captured(void (*fn)(void)) {
  fflush(stdout);
  int saved = dup(1), fd = open("captured.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  CHECK(saved >= 0 && fd >= 0);
  dup2(fd, 1);
  fn();
  fflush(stdout);
  dup2(saved, 1);
  close(fd);
  close(saved);
  std::string text;
  FILE *f = fopen("captured.txt", "r");
  if (f) {
    for (int c; (c = fgetc(f)) != EOF;)
      text += (char)c;
    fclose(f);
  }
  return text;
}
#endif

#endif
