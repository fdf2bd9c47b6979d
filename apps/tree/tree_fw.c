// tree_fw.c: the tree app's thread program on Tinsel (tsim --all-threads):
// the softswitch runs the thread image the host preloaded at
// tinselHeapBase() (apps/tree/tree.c writes one for every thread, with
// SS_FLAG_EXIT_ON_IDLE), and the devices report on the debug link
// (taskgraph/ssrun_fw.h).
#include "ssrun_fw.h"
#include "tree.h"

void tree_report_root(const tree_props *p, const tree_msg *m) {
  ssrun_field("tree: root ", p->id), ssrun_field(": hash ", m->hash), ssrun_field(" size ", m->size);
  ssrun_field(" height ", m->height), ssrun_field(" cycle ", tinselCycleCount()), ssrun_say("\n");
}

void tree_report_error(const tree_props *p, const tree_state *s) {
  ssrun_field("tree: node ", p->id), ssrun_field(": error ", s->errors);
  ssrun_field(" count ", ss_event_count(&s->done)), ssrun_say("\n");
}

int main(void) { return ssrun_fw_main("tree"); }
