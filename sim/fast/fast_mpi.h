/* fast_mpi.h: the fast engine split over MPI ranks (fast_mpi.c; sim/README.md
   "Fast engine over MPI ranks"). Started by mpirun, each rank clocks a
   contiguous share of the boards (rank 0 has board 0, the host link's);
   every rank loads the whole run. The run goes in windows no longer than
   the shortest inter-board latency (FAST_MPI_WINDOW): what crosses ranks
   in a window (link messages with their contents, slots given back) is
   exchanged at its end, before any of it can matter, and the ranks then
   agree on the stop, the quiet end and the watchdog, idle detection and
   the next cycle in which anything happens. Without mpirun (or built
   without MPI) the binary runs as one process, as before. */
#ifndef FAST_MPI_H
#define FAST_MPI_H

#include "fast_engine.h"

/* The shortest time from one board's router putting a message on a link to
   the neighbour's router having it: one flit on the wire
   (LinkCyclesPerFlit, boards/derived.cfg from LinkBitsPerFlit, ClockFreq
   and LinkGbps) plus the receiving MAC (MacLatency, boards/tinsel.cfg):
   6 + 100 = 106 cycles for boards/tinsel.cfg. A slot the receiver frees
   goes back to the sender as late. */
enum { FAST_MPI_WINDOW = TinselLinkCyclesPerFlit + TinselMacLatency };

typedef struct {
  int on;            /* started by mpirun: the run goes in windows */
  int rank, ranks;   /* 0 and 1 in one process */
  unsigned window;   /* cycles per window */
} FastMpi;
extern FastMpi fast_mpi;

/* What the ranks agree on at the end of a window (fast_mpi_sync). */
typedef struct {
  unsigned long long stop_key;     /* min: (cycle << 3 | tsim_stop) of a rank that stopped, else ~0 */
  unsigned long long last_active;  /* max: the last cycle anything happened */
  unsigned long long next_event;   /* min: the next cycle in which anything may happen */
  long long inflight;              /* sum: messages sent and not yet received (idle detection) */
  long long sent;                  /* sum: messages sent so far (progress) */
  int idle, voted;                 /* and: every thread in tinselIdle; every one voted */
  uint32_t tohost;                 /* the stopping rank's tohost value */
  unsigned dl_gen;                 /* max: rank 0's DebugLink configuration generation (the others 0) */
} FastSync;

/* Before loading: when started by mpirun (OMPI_COMM_WORLD_SIZE in the
   environment), MPI_Init. 0, or an exit status after saying why (built
   without MPI and asked for more than one rank). */
int fast_mpi_start(int *argc, char ***argv);
/* After fast_init: this rank's boards and tiles, windows and link timing.
   0, or an exit status after saying why (more ranks than boards), the
   same on every rank: end with fast_mpi_finish. */
int fast_mpi_split(FastRun *r);
/* End of a window: ship what crossed ranks, then agree on S (in place). */
void fast_mpi_exchange(FastRun *r);
void fast_mpi_sync(FastSync *s);
/* End of the run, after fast_final: gather every rank's statistics on
   rank 0; *SECS becomes the host CPU seconds of all ranks. */
void fast_mpi_gather(double *secs);
/* Rank 0's exit status, on every rank; MPI_Finalize. */
int fast_mpi_finish(int status);
/* An error on one rank: stop them all with STATUS (MPI_Abort when split). */
int fast_mpi_fail(int status);

#endif
