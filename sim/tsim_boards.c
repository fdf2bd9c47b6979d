/* tsim_boards.c: the boards of one run (tsim_boards.h). */
#include "tsim_boards.h"

#include <stdio.h>

static unsigned nx = 1, ny = 1;

void tsim_boards_set(unsigned x, unsigned y) {
  nx = x;
  ny = y;
}

unsigned tsim_boards(void) { return nx * ny; }
unsigned tsim_boards_x(void) { return nx; }
unsigned tsim_boards_y(void) { return ny; }

unsigned tsim_board_addr(unsigned b) { return (b / nx) << TinselMeshXBits | (b % nx); }

int tsim_board_next(unsigned b, unsigned dir) {
  int x = (int)(b % nx), y = (int)(b / nx);
  switch (dir) {
  case TSIM_NORTH: y++; break;
  case TSIM_SOUTH: y--; break;
  case TSIM_EAST: x++; break;
  default: x--; break;
  }
  return x < 0 || y < 0 || x >= (int)nx || y >= (int)ny ? -1 : y * (int)nx + x;
}

int tsim_board_of_addr(unsigned addr) {
  unsigned x = addr & ((1u << TinselMeshXBits) - 1), y = addr >> TinselMeshXBits;
  return x < nx && y < ny ? (int)(y * nx + x) : -1;
}

const char *tsim_board_prefix(unsigned b) {
  static char buf[4][24];
  static unsigned next;
  if (nx * ny == 1) return "";
  char *s = buf[next++ % 4];
  snprintf(s, sizeof buf[0], "board %u ", b);
  return s;
}
