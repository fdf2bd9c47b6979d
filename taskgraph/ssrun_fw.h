/* ssrun_fw.h: what the thread programs of the apps run by taskgraph/ssrun
 * share (apps/tree/tree_fw.c, taskgraph/tgp_fw.c): reports on the debug
 * link in hexadecimal (printf's formatting would not fit the instruction
 * memory beside the softswitch), and main: the softswitch on the image the
 * host preloaded at tinselHeapBase(). */
#ifndef SSRUN_FW_H
#define SSRUN_FW_H

#include "softswitch.h"
#include "tinsel.h"

static void ssrun_say(const char *s) {
  while (*s)
    putchar(*s++);
}

static void ssrun_field(const char *label, uint32_t x) {
  ssrun_say(label);
  puthex(x);
}

/* ss_run; a bad image or softswitch errors are reported as
 * "APP: thread ID: softswitch error N". */
static inline int ssrun_fw_main(const char *app) {
  ss_thread t;
  ss_thread_image *img = tinselHeapBase();
  int r = ss_run(&t, img);
  if (r || img->stats.errors)
    ssrun_say(app), ssrun_field(": thread ", tinselId()), ssrun_field(": softswitch error ", img->stats.errors),
        ssrun_say("\n");
  return 0;
}

#endif
