/* tgp_fw.c: a thread program of tg.h's POETS back end on Tinsel (tsim
 * --all-threads): the softswitch runs the image the host preloaded
 * (tg_poets.c), and each node reports at the end on the debug link. */
#include "ssrun_fw.h"
#include "tg_poets.h"

// "tgp: node" and the report's words (tgp_report: id, run, firings, invocations,
// state hash, errors, ctx): tg_poets.c reads them back.
void tgp_report_node(const tgp_report *r) {
  const uint32_t *w = &r->id;
  ssrun_say("tgp: node");
  for (uint32_t i = 0; i < sizeof(*r) / 4; i++)
    ssrun_field(" ", w[i]);
  ssrun_say("\n");
}

int main(void) { return ssrun_fw_main("tgp"); }
