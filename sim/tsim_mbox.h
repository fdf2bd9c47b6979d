/* tsim_mbox.h: the C side of the mailboxes and the NoC (sim/tsim_mbox.c). */
#ifndef TSIM_MBOX_H
#define TSIM_MBOX_H

#ifdef __cplusplus
extern "C" {
#endif

/* Print the message statistics (per mailbox and router, totals) to stderr. */
void tsim_mbox_print_stats(void);

#ifdef __cplusplus
}
#endif
#endif
