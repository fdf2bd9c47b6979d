// unit.h: the check macro of the firmware unit tests; main ends with
// UNIT_FINISH(), which prints the "N passed, N failed" line.
#ifndef UNIT_H
#define UNIT_H
#include <stdio.h>

static int passed, failed;

#define CHECK(cond, ...)                                                   \
  do {                                                                     \
    if (cond) passed++;                                                    \
    else {                                                                 \
      failed++;                                                            \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                          \
      printf(__VA_ARGS__);                                                 \
      printf("\n");                                                        \
    }                                                                      \
  } while (0)

#define UNIT_FINISH() (printf("%d passed, %d failed\n", passed, failed), failed != 0)
#endif
