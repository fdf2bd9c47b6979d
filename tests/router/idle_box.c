/* tests/router/idle_box.c: idle detection across the boards of a box.
 * Every thread of every board calls tinselIdle(1): the release needs all
 * of them on all six boards and returns 2 (all voted true). Then again
 * with one thread of the last board voting false: 1 everywhere. A third
 * round lets a failing thread report before thread 0 passes. Also checks
 * that HartId carries the board's mesh address (tinsel.md §2.4). */
#include "mbox_test.h"

enum { BOARDS_X = TinselMeshXLenWithinBox, BOARDS_Y = TinselMeshYLenWithinBox };
#define VETO ((((uint32_t)(BOARDS_Y - 1) << TinselMeshXBits | (BOARDS_X - 1)) << TinselLogThreadsPerBoard) | 77u)

int main(void) {
  uint32_t id = tinselId(), board = id >> TinselLogThreadsPerBoard;
  uint32_t x = board & ((1u << TinselMeshXBits) - 1), y = board >> TinselMeshXBits;
  if (x >= BOARDS_X || y >= BOARDS_Y) return 2;
  if (tinselIdle(1) != 2) return 3;
  if (tinselIdle(id != VETO) != 1) return 4;
  while (tinselIdle(1) == 0) {}
  return 0;
}
