/*
 * tsim_preload_write.h: writing a tsim --preload file (the format:
 * sim/tsim_preload.h, sim/README.md "Preload"), for the sim engine and
 * tests. Model-only: real boards load through the boot loader.
 */
#ifndef TSIM_PRELOAD_WRITE_H
#define TSIM_PRELOAD_WRITE_H

#include <stdint.h>
#include <stdio.h>

typedef struct {
  FILE *f;
  int failed;          /* a write failed: close reports it */
  unsigned long long bytes;
} op2t_preload;

/* Creates PATH with the magic; 0, or -1 (errno set). */
int op2t_preload_open(op2t_preload *p, const char *path);
/* Words into the instruction memory of CORE's pair at ADDR. */
void op2t_preload_code(op2t_preload *p, uint32_t core, uint32_t addr, const void *bytes, uint32_t len);
/* Bytes at ADDR as CORE's threads see it. */
void op2t_preload_data(op2t_preload *p, uint32_t core, uint32_t addr, const void *bytes, uint32_t len);
/* The threads in MASK of CORE start at ENTRY. */
void op2t_preload_start(op2t_preload *p, uint32_t core, uint32_t entry, uint32_t mask);
/* 0, or -1 when a write or the close failed (errno set). */
int op2t_preload_close(op2t_preload *p);

#endif
