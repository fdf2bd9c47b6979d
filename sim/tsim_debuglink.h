/* tsim_debuglink.h: the DebugLink tsim serves (--debuglink; tinsel.md §4.3):
   threads' StdIn (CSR FromUart) and StdOut (CSR ToUart) bytes, board
   queries (with their config: link disables, extra send slot) and
   temperature, in boardctrld's framing (sim/README.md). */
#ifndef TSIM_DEBUGLINK_H
#define TSIM_DEBUGLINK_H

#include <poll.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Listen on SPEC. 0, or -1 after printing why. */
int tsim_debuglink_listen(const char *spec);
/* Accept a client if one waits, read and obey its commands, write pending
   StdOut; without blocking. */
void tsim_debuglink_io(void);
/* The fd to wait on for the next event (listening or connected) and its
   events; 0 when there is none. */
int tsim_debuglink_pollfd(struct pollfd *p);
/* Write everything pending (at the end of a run or before a wait). */
void tsim_debuglink_flush(void);
void tsim_debuglink_close(void);
/* StdOut bytes that a client never got (it closed the link or stopped
   reading): reported on stderr when dropped; tsim then exits
   TSIM_EXIT_OUTPUT. */
unsigned long long tsim_debuglink_lost(void);

/* A thread wrote BYTE to ToUart: a StdOut packet when a client is
   connected, else the byte goes to stdout. */
void tsim_debuglink_stdout(unsigned core, unsigned thread, uint8_t byte);
/* Without a client, StdOut goes to stdout a line at a time per thread:
   write thread (CORE, THREAD)'s partial line, or every thread's. */
void tsim_debuglink_stdout_flush(unsigned core, unsigned thread);
void tsim_debuglink_stdout_flush_all(void);

/* The links of board B that QueryIn's config disabled (1 << TSIM_LINK_*,
   tsim_hostlink.h): they neither take nor offer messages. */
unsigned tsim_debuglink_links_off(unsigned b);
/* What QueryIn configured (links off and receive pool per board, as
   tsim_debuglink_links_off and tsim_mbox_pool_config read them), for a
   fast engine split over MPI ranks: the DebugLink is rank 0's, so the
   others take rank 0's copy whenever its generation (a count of changes)
   moves. Arrays of TSIM_MAX_BOARDS entries each. */
unsigned tsim_debuglink_config_gen(void);
void tsim_debuglink_config_get(unsigned *links_off, unsigned *pool);
void tsim_debuglink_config_set(const unsigned *links_off, const unsigned *pool);

/* Board B's router had a message for the disabled links in MASK: said
   once per board and link when the DebugLink closes. */
void tsim_debuglink_held(unsigned b, unsigned mask);

#ifdef __cplusplus
}
#endif
#endif
