// tree_fw.c: the tree app's thread program on Tinsel (tsim --all-threads):
// the softswitch runs the thread image the host preloaded at
// tinselHeapBase() (apps/tree/tree.c writes one for every thread, with
// SS_FLAG_EXIT_ON_IDLE), and the devices report on the debug link.
#include "softswitch.h"
#include "tinsel.h"
#include "tree.h"

// Reports in hexadecimal through the library's putchar and puthex (printf's
// formatting would not fit the instruction memory beside the softswitch).
static void say(const char *s) {
  while (*s)
    putchar(*s++);
}
static void field(const char *label, uint32_t x) {
  say(label);
  puthex(x);
}

void tree_report_root(const tree_props *p, const tree_msg *m) {
  field("tree: root ", p->id), field(": hash ", m->hash), field(" size ", m->size), field(" height ", m->height);
  field(" cycle ", tinselCycleCount()), say("\n");
}

void tree_report_error(const tree_props *p, const tree_state *s) {
  field("tree: node ", p->id), field(": error ", s->errors), field(" count ", ss_event_count(&s->done)), say("\n");
}

int main(void) {
  ss_thread t;
  ss_thread_image *img = tinselHeapBase();
  int r = ss_run(&t, img);
  if (r || img->stats.errors)
    field("tree: thread ", tinselId()), field(": softswitch error ", img->stats.errors), say("\n");
  return 0;
}
