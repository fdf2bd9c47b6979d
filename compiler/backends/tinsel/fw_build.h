// fw_build.h: compiling firmware images for Tinsel and checking their size.
#ifndef FW_BUILD_H
#define FW_BUILD_H

#include "firmware.h"

typedef struct {
  const char *dir;      // the generated sources; objects, ELFs and images.txt go here too
  const char *prefix;   // op2c's prefix: include/ and lib/firmware/
  bool verbose;
  bool enlarged_ok;     // --imem enlarged: a type over real Tinsel's budget is a warning
  FILE *manifest;       // images.txt, while building
  FwImage *groups;      // fw_group_types: the images of the code groups
  int ngroups;
  const char *out_dir;  // objects and ELFs go here (NULL: dir; fw_build_config)
  const char *config;   // firmware/'s flags of this boards/ configuration (NULL: the board's)
  bool cxx_kernels;     // a C++ program: its kernels are op2_kernels.cpp, compiled as C++
  bool trial;           // --steps auto's try of tables: a type that does not fit fails quietly
  bool count_events;    // --count-events: link the softswitch that counts every message and step
} FwBuild;

// Compiles and links every image, measures its code, writes images.txt
// (name, bytes, which budget it fits, types; then the groups), and fails
// when a one-type image exceeds the budget.
int fw_build_images(FwBuild *b, const GGraphType *g, FwImage *imgs, int nimgs);
int fw_build_one(FwBuild *b, const GGraphType *g, FwImage *img);
// The budget groups must fit: real Tinsel's, or the enlarged-imem model's.
long fw_budget(const FwBuild *b);

// fw_group.c: groups of types that share a core pair's instruction memory.
int fw_group_types(FwBuild *b, const GGraphType *g, const FwImage *imgs, int nimgs);
// Links group k's globals at its own slice of the DRAM globals (so groups
// sharing a DRAM never overlap) and writes the "group K IMAGE ADDR" lines.
int fw_place_globals(FwBuild *b, const GGraphType *g);
// Compiles and links IMG again (after globals_at changed) and measures it.
int fw_relink(FwBuild *b, const GGraphType *g, FwImage *img);
// --fw-config NAME: the code groups again with firmware/ built for boards/
// configuration NAME (another thread layout: <prefix>/lib/firmware/NAME/),
// into <dir>/NAME/, each checked against the same budget.
int fw_build_config(const FwBuild *b, const GGraphType *g, const char *config);

#endif
