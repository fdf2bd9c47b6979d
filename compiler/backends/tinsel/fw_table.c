// fw_table.c: the softswitch's device-type table (ss_dev_types in
// firmware/softswitch/softswitch.h) for one image. The only file that knows
// the table's layout. Every type has an entry, in graph order, so type
// numbers agree across images; a type whose handlers are not in the image
// gets an empty entry (no pins, no handlers). The device gets the steps
// alone (firmware.c; at ss_init its devices are not ready, see softswitch.c);
// the host engines, which call handlers and ReadyToSend one by one, the
// handler tables and the whole ReadyToSend too.
#include "firmware.h"

void fw_write_table(FILE *f, const GGraphType *g, const FwImage *img) {
  fprintf(f, "const ss_dev_type ss_dev_types[%d] = {\n", g->ntypes);
  for (int i = 0; i < g->ntypes; i++) {
    const GDeviceType *t = g->types[i];
    if (!img->has_type[i]) {
      fprintf(f, "  {0}, // %s: not in this image\n", t->id);
      continue;
    }
    fprintf(f, "  { // %s\n", t->id);
    fprintf(f, "    .num_in_pins = %d,\n    .num_out_pins = %d,\n", fw_num_in(t), fw_num_out(t));
    fprintf(f, "    .init = %s__init,\n    .idle = NULL,\n", t->id);
    fprintf(f, "    .out_bytes = %s__out_bytes,\n", t->id);
    fprintf(f, "    .step = %s__step,\n#ifndef __riscv\n", t->id);
    fprintf(f, "    .rts = %s__rts,\n    .send = %s__send,\n    .recv = %s__recv,\n#endif\n  },\n", t->id, t->id,
            t->id);
  }
  fprintf(f, "};\nconst uint32_t ss_num_dev_types = %d;\n", g->ntypes);
}
