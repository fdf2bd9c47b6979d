// assert.c: report a failed assertion with the thread that hit it, then
// park the thread (there is no exit on Tinsel; the host sees the message).
#include <assert.h>
#include <stdio.h>
#include "tinsel.h"

void fw_assert_fail(const char *file, int line, const char *expr) {
  printf("assert failed: thread 0x%x: %s:%d: %s\n", (unsigned)tinselId(), file, line, expr);
  tinselKillThread();
  for (;;) {}
}
