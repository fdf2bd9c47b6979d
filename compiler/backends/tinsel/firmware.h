// firmware.h: the device code of a graph type as C, for the softswitch
// (firmware/softswitch/softswitch.h) and for the host's functional engine.
//
// Files written into a directory (see docs/tinsel-backend.md):
//   op2_graph.h         graph properties, message, props, state and edge
//                       structs; type and pin numbers (shared with the host)
//   op2_shared.inc      const globals, kernels and helpers (static), and
//                       op2_load_consts (graph properties -> const globals)
//   set_<S>.inc         the handlers of device type set_<S> and its pin tables
//   <image>.c           one translation unit per image: the shared code, the
//                       .inc files of its types and the ss_dev_types table
//                       (fw_table.c: the only place that knows the layout)
#ifndef FIRMWARE_H
#define FIRMWARE_H

#include "graph.h"

// An image: the device types whose handlers one core pair's instruction
// memory holds. Types not in it still have a (null) table entry, so the
// type numbers the host writes are the same in every image.
typedef struct {
  char *name;           // file stem: img_<type> or img_all
  bool *has_type;       // [ntypes]
  bool single;          // holds one type only: `type`
  int type;
  long text_bytes;      // measured by fw_build_images
  unsigned long globals_at; // its .rodata/.data/.bss start here (0: TinselDRAMBase, app.ld's)
  long globals_bytes;   // measured: .rodata, .data and .bss together
} FwImage;

// Input and output pin numbers of a type's pins (by position in t->pins).
int fw_in_index(const GDeviceType *t, int pin);
int fw_out_index(const GDeviceType *t, int pin);
int fw_num_in(const GDeviceType *t);
int fw_num_out(const GDeviceType *t);
// The position in t->pins of the pin called name, or -1.
int fw_find_pin(const GDeviceType *t, const char *name);
// C identifiers.
char *fw_msg_struct(const GMessageType *m);
char *fw_handler_name(const GDeviceType *t, const GPin *p);

bool fw_write_sources(const char *dir, const GGraphType *g);
bool fw_write_image(const char *dir, const GGraphType *g, const FwImage *img);

// fw_table.c: the softswitch's device-type table for one image.
void fw_write_table(FILE *f, const GGraphType *g, const FwImage *img);
// fw_combine.c: per invocation, the fold of end messages (ss_tree.h ss_end_combine).
void fw_write_combine(FILE *f, const GGraphType *g);

#endif
