/* tsim_mbox.h: the C side of the mailboxes and the NoC (sim/tsim_mbox.c). */
#ifndef TSIM_MBOX_H
#define TSIM_MBOX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Print the message statistics (per mailbox and router, totals) to stderr. */
void tsim_mbox_print_stats(void);
/* The totals as --stats-file lines (messages.sent, .received, .deliveries, .hops). */
void tsim_mbox_stats_file(FILE *f);

/* --delay-seed / --delay-max (sim/README.md): on, the seed, the most extra cycles. */
void tsim_mbox_set_delay(int on, unsigned long long seed, unsigned max);

/* Messages transmitted so far (for the progress line). */
unsigned long long tsim_mbox_sent_so_far(void);
/* Messages in flight now: transmitted (or injected by the host, or made
   by a board router) and not yet placed in a receive slot. */
int tsim_mbox_in_flight(void);

/* The board router (tsim_progrouter.c) makes messages out of messages: a
   new handle with the contents of MSG and another destination-thread mask;
   replace the BITS of payload word WORD by VALUE's; drop a handle. */
unsigned tsim_mbox_copy(unsigned msg, unsigned long long mask);
void tsim_mbox_rewrite(unsigned msg, unsigned word, unsigned value, unsigned bits);
void tsim_mbox_drop(unsigned msg);
/* In-flight messages (handles) for the host link (sim/tsim_hostlink.c). */
enum { TSIM_MSG_FROM_HOST = 0xffffffffu };
/* A new message from the host: FLITS flits of WORDS for the threads in MASK
   of its destination mailbox (or a routing key in the low word); its handle. */
unsigned tsim_mbox_inject(unsigned flits, const uint32_t *words, uint64_t mask);
/* A message's words (BytesPerMsg / 4 of them, zero past its flits) and flits. */
const uint32_t *tsim_mbox_words(unsigned msg);
unsigned tsim_mbox_flits(unsigned msg);
/* "board B, core C, thread T" or "the host": who sent MSG. */
void tsim_mbox_describe_src(unsigned msg, char *buf, size_t len);

/* A message as it crosses between MPI ranks (sim/fast/fast_mpi.c): its
   words, mask, flits and sender. Export copies message MSG into *W and
   frees it here; import makes a message of *W here and returns it. */
typedef struct { uint32_t words[16]; uint64_t mask; uint32_t flits, src; } TsimMbWire;
void tsim_mbox_export(unsigned msg, TsimMbWire *w);
unsigned tsim_mbox_import(const TsimMbWire *w);
/* Gather the statistics of every rank onto one: OR combines the bytes of
   per-tile arrays (each tile is counted by one rank, the others hold
   zeros), SUM adds N counters of every rank. */
void tsim_mbox_stats_reduce(void (*or_bits)(void *buf, size_t bytes), void (*sum)(long long *v, unsigned n));

#ifdef __cplusplus
}
#endif
#endif
