// host_tables.h: the host side of the tinsel back end: protocol tables for
// the runtime (host_tables.c) and the translated user sources (host_loops.c).
#ifndef HOST_TABLES_H
#define HOST_TABLES_H

#include "firmware.h"

void host_write_tables(FILE *f, const GGraphType *g, const Protocol *proto);
// op2t_groups (op_tinsel.h): the code groups fw_group_types chose.
void host_write_groups(FILE *f, const GGraphType *g, const FwImage *groups, int ngroups);
// Writes the translated copy of prog's file (op_par_loop -> op2t_invoke).
bool host_write_translation(const Program *prog, const char *path);

#endif
