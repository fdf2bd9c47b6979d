/* tsim_mem.c: see tsim_mem.h. Pages live in an open-addressing hash table
   keyed by (space, page number); a one-entry cache catches the common case
   of consecutive accesses to the same page. */
#include "tsim_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PAGE_BITS = 12, PAGE_SIZE = 1 << PAGE_BITS };

typedef struct {
  uint64_t key;   /* (space << 32 | page) + 1; 0 = empty */
  uint8_t *page;
} Slot;

static Slot *table;
static size_t cap, used;
static uint64_t last_key;
static uint8_t *last_page;

static size_t hash(uint64_t k) { return (size_t)((k * 0x9e3779b97f4a7c15ULL) >> 20); }

static void grow(void) {
  size_t old_cap = cap;
  Slot *old = table;
  cap = cap ? cap * 2 : 1024;
  table = calloc(cap, sizeof *table);
  if (!table) { fputs("tsim: out of memory for simulated memory\n", stderr); exit(70); }
  for (size_t i = 0; i < old_cap; i++)
    if (old[i].key) {
      size_t j = hash(old[i].key) & (cap - 1);
      while (table[j].key) j = (j + 1) & (cap - 1);
      table[j] = old[i];
    }
  free(old);
}

static uint8_t *page_of(unsigned space, uint32_t addr) {
  uint64_t key = ((uint64_t)space << 32 | (addr >> PAGE_BITS)) + 1;
  if (key == last_key) return last_page;
  if (2 * (used + 1) > cap) grow();
  size_t j = hash(key) & (cap - 1);
  while (table[j].key && table[j].key != key) j = (j + 1) & (cap - 1);
  if (!table[j].key) {
    table[j].key = key;
    table[j].page = calloc(1, PAGE_SIZE);
    if (!table[j].page) { fputs("tsim: out of memory for simulated memory\n", stderr); exit(70); }
    used++;
  }
  last_key = key;
  last_page = table[j].page;
  return last_page;
}

uint32_t tsim_mem_read(unsigned space, uint32_t addr, unsigned size) {
  uint32_t v = 0;
  for (unsigned i = 0; i < size; i++) {
    uint32_t a = addr + i;
    v |= (uint32_t)page_of(space, a)[a & (PAGE_SIZE - 1)] << (8 * i);
  }
  return v;
}

void tsim_mem_write(unsigned space, uint32_t addr, unsigned size, uint32_t value) {
  for (unsigned i = 0; i < size; i++) {
    uint32_t a = addr + i;
    page_of(space, a)[a & (PAGE_SIZE - 1)] = (uint8_t)(value >> (8 * i));
  }
}

void tsim_mem_read_block(unsigned space, uint32_t addr, void *buf, unsigned n) {
  memcpy(buf, page_of(space, addr) + (addr & (PAGE_SIZE - 1)), n);
}

void tsim_mem_write_block(unsigned space, uint32_t addr, const void *buf, unsigned n) {
  memcpy(page_of(space, addr) + (addr & (PAGE_SIZE - 1)), buf, n);
}

void tsim_mem_free_all(void) {
  for (size_t i = 0; i < cap; i++) free(table[i].page);
  free(table);
  table = NULL;
  cap = used = 0;
  last_key = 0;
  last_page = NULL;
}
