/* tsim_hostlink.h: the board's four inter-board links as the harness sees
   them, and the host link behind board 0's West link (--hostlink;
   tinsel.md §4.2). tsim_main.cpp copies the model's link ports to and from
   a TsimLinkIO around every clock edge and calls tsim_links_cycle. */
#ifndef TSIM_HOSTLINK_H
#define TSIM_HOSTLINK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tsim_args.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TSIM_LINK_N = 0, TSIM_LINK_S = 1, TSIM_LINK_E = 2, TSIM_LINK_W = 3, TSIM_LINKS = 4 };

/* One cycle of the links. Bits are directions (1 << TSIM_LINK_*). */
typedef struct {
  /* Set by the harness: what moved on the last clock edge (valid && ready
     before it), with the outgoing messages as they were before the edge. */
  unsigned in_taken, out_taken;
  uint32_t out_dest[TSIM_LINKS], out_msg[TSIM_LINKS];
  unsigned out_lens;   /* flits - 1, LogMaxFlitsPerMsg bits per direction (as the port) */
  /* Set by tsim_links_cycle: what to drive before the next edge. */
  unsigned in_valid, out_ready;
  uint32_t in_dest[TSIM_LINKS], in_msg[TSIM_LINKS];
  unsigned in_lens;
} TsimLinkIO;

/* Listen (--hostlink, --debuglink), print "tsim: hostlink: listening on
   PATH" and wait for the host to connect. 0, or an exit status after
   printing why. Without --hostlink: nothing. */
int tsim_hostlink_start(const TsimArgs *a);

/* After each clock edge, with one TsimLinkIO per board (NB of them):
   consume what left the boards, feed what the host sent, and, when the
   boards have been quiet long enough (ACTIVE low; see sim/README.md) and
   the host has nothing for them, block until the host writes or goes.
   Returns 1 after such a wait (the watchdog restarts). Sets tsim_stop when
   the host closes the link or breaks the protocol, or a message leaves
   through a link with nothing behind it. */
int tsim_links_cycle(TsimLinkIO *io, unsigned nb, unsigned long long cycle, int active);

/* For idle detection: messages the host injected (counted once per
   destination thread, or once when keyed) minus messages that left for the
   host (once per thread of their mask, as their sender counted them). */
long long tsim_hostlink_inflight(void);

/* Write what is pending and close the sockets. */
void tsim_hostlink_finish(void);

/* Statistics: the human line(s) (stderr) and the stats-file keys. */
void tsim_hostlink_print_stats(void);
void tsim_hostlink_stats_file(FILE *f);
/* Gather every rank's per-board link counts onto one (sim/fast/fast_mpi.c):
   OR combines the bytes (each board is clocked by one rank only). */
void tsim_hostlink_stats_reduce(void (*or_bits)(void *buf, size_t bytes));

#ifdef __cplusplus
}
#endif
#endif
