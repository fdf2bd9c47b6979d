/*
 * board_emit.h: write a loaded configuration in the formats its consumers
 * read: C header, SystemVerilog package, linker symbols, Tcl dict and a
 * markdown table. Every output starts with a DO NOT EDIT banner.
 */
#ifndef BOARD_EMIT_H
#define BOARD_EMIT_H

#include <stdio.h>

#include "board_config.h"

void emit_header(FILE *f, const BoardConfig *cfg);
void emit_sv(FILE *f, const BoardConfig *cfg);
void emit_ld(FILE *f, const BoardConfig *cfg);

/* These two take several configurations: the Tcl dict holds them all, the
 * table has a column for each (its CSR and memory-map tables show the first). */
void emit_tcl(FILE *f, BoardConfig *const *cfgs, int n);
void emit_markdown(FILE *f, BoardConfig *const *cfgs, int n);

/* Writes a value as Tcl reads it back as one word. */
void emit_tcl_word(FILE *f, const char *s);

#endif
