/* tsim_mbox.h: the C side of the mailboxes and the NoC (sim/tsim_mbox.c). */
#ifndef TSIM_MBOX_H
#define TSIM_MBOX_H

#ifdef __cplusplus
extern "C" {
#endif

/* Print the message statistics (per mailbox and router, totals) to stderr. */
void tsim_mbox_print_stats(void);

/* --delay-seed / --delay-max (sim/README.md): on, the seed, the most extra cycles. */
void tsim_mbox_set_delay(int on, unsigned long long seed, unsigned max);

/* Messages transmitted so far (for the progress line). */
unsigned long long tsim_mbox_sent_so_far(void);

/* The board router (tsim_progrouter.c) makes messages out of messages: a
   new handle with the contents of MSG and another destination-thread mask;
   replace the BITS of payload word WORD by VALUE's; drop a handle. */
unsigned tsim_mbox_copy(unsigned msg, unsigned long long mask);
void tsim_mbox_rewrite(unsigned msg, unsigned word, unsigned value, unsigned bits);
void tsim_mbox_drop(unsigned msg);

#ifdef __cplusplus
}
#endif
#endif
