/* tsim_mem.h: sparse byte-addressed memories (DRAM slices, scratchpads),
   4 KiB pages allocated on first touch, so a board's gigabytes cost only
   what a program touches (rtl_sim.md §1.3: host cache footprint). */
#ifndef TSIM_MEM_H
#define TSIM_MEM_H

#include <stdint.h>

/* Read SIZE (1, 2 or 4) bytes at ADDR of memory SPACE, little-endian. */
uint32_t tsim_mem_read(unsigned space, uint32_t addr, unsigned size);
void tsim_mem_write(unsigned space, uint32_t addr, unsigned size, uint32_t value);
/* N bytes at ADDR of SPACE to or from BUF, ADDR .. ADDR + N - 1 within one
   4 KiB page (a cache line: the data caches' fills and writebacks). */
void tsim_mem_read_block(unsigned space, uint32_t addr, void *buf, unsigned n);
void tsim_mem_write_block(unsigned space, uint32_t addr, const void *buf, unsigned n);
void tsim_mem_free_all(void);

#endif
