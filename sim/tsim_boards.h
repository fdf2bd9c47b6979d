/* tsim_boards.h: the boards of one run. A model binary serves one board
   configuration (tsim_top: one board); `--config box` runs several
   instances of the board model, one per worker of boards/box.cfg, in one
   process; `--config cluster` (boards/cluster.cfg: 48 workers) the fast engine
   only. The C side indexes cores, tiles and memories by run-wide
   numbers: board index * per-board count + number on the board. */
#ifndef TSIM_BOARDS_H
#define TSIM_BOARDS_H

#include "tinsel_config.h"
#include "tsim_box.h"  /* generated from boards/box.cfg, cluster.cfg: TSIM_BOX_X, _Y, TSIM_CLUSTER_X, _Y */

#ifdef __cplusplus
extern "C" {
#endif

enum {
  TSIM_MAX_BOARDS = TSIM_CLUSTER_X * TSIM_CLUSTER_Y > TSIM_BOX_X * TSIM_BOX_Y ? TSIM_CLUSTER_X * TSIM_CLUSTER_Y
                                                                     : TSIM_BOX_X * TSIM_BOX_Y,
  TSIM_CORES = TSIM_MAX_BOARDS * TinselCoresPerBoard,
  TSIM_TILES = TSIM_MAX_BOARDS * TinselMailboxesPerBoard,
  TSIM_DRAMS = TSIM_MAX_BOARDS * TinselDRAMsPerBoard,
  TSIM_THREADS = TSIM_CORES * TinselThreadsPerCore
};

/* Directions of the inter-board links, as in a RR record (tinsel.md §3.3). */
enum { TSIM_NORTH = 0, TSIM_SOUTH = 1, TSIM_EAST = 2, TSIM_WEST = 3 };

/* Set the mesh (tsim_run_load: a box runs its workers, else one board). */
void tsim_boards_set(unsigned x, unsigned y);
/* "board B " in a run of several boards, else "": for statistics lines
   (a static buffer, one of four in turn). */
const char *tsim_board_prefix(unsigned b);
/* Boards in this run and the mesh they form (1x1, or the box's). */
unsigned tsim_boards(void);
unsigned tsim_boards_x(void);
unsigned tsim_boards_y(void);
/* Board index b's mesh address {Y, X} as in a thread id (tinsel.md §2.4). */
unsigned tsim_board_addr(unsigned b);
/* The index of the board next to b in direction dir, or -1 off the mesh. */
int tsim_board_next(unsigned b, unsigned dir);
/* The index of the board with mesh address addr, or -1 if it is not in the run. */
int tsim_board_of_addr(unsigned addr);

#ifdef __cplusplus
}
#endif
#endif
