/* tsim_progrouter.h: the board router's key lookup (sim/tsim_progrouter.c),
   called by rtl_models/progrouter.sv through DPI and by the harness. */
#ifndef TSIM_PROGROUTER_H
#define TSIM_PROGROUTER_H

#include "tinsel_config.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One fetcher per router input: N, S, E, W and the south-rim NoC links
   (tinsel.md §3.3: FetchersPerProgRouter, so a full output cannot block
   another input's lookups). Output ports: the four links (a RR record's
   direction) and the NoC. */
enum { TSIM_PR_FETCHERS = 4 + TinselMailboxMeshXLen, TSIM_PR_NOC = 4 };

/* Most messages one lookup may make (it runs ahead of the fetcher's timing;
   a 31-beat key holds at most 150 records, so chains of 27 such keys fit). */
enum { TSIM_PR_MAX_OUT = 4096 };

/* Messages made minus keyed messages consumed by board B's router: added to
   the board's sent-minus-freed count for idle detection. */
long long tsim_pr_inflight(unsigned board);

/* Router statistics (stderr), one line per board whose router looked up keys. */
void tsim_pr_print_stats(void);
/* Gather every rank's per-board statistics onto one (sim/fast/fast_mpi.c):
   OR combines the bytes (each board is counted by one rank only). */
void tsim_pr_stats_reduce(void (*or_bits)(void *buf, size_t bytes));

#ifdef __cplusplus
}
#endif
#endif
