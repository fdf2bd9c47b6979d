/* hl_internal.h: the state behind a hostlink handle, shared by the
 * library's files (hl_link.c: connection and messages; hl_boot.c: boot
 * commands; hl_elf.c: ELF loading; hl_debug.c: the DebugLink). */
#ifndef HL_INTERNAL_H
#define HL_INTERNAL_H

#include "hostlink.h"
#include "tinsel_config.h"

#include <stdarg.h>

enum { HL_MSG_BYTES = TinselBytesPerMsg, HL_DEBUG_PKT = 5, HL_BOOT_MAX_ARGS = 15 };
/* How long a boot reply (Load words, Start acks) or a DebugLink answer may
   take by default: the cycle model is slow (hl_set_timeout). */
enum { HL_DEFAULT_TIMEOUT_MS = 120000 };
/* Connecting: attempts, one every HL_CONNECT_PAUSE_MS (a host program may
   start tsim and connect at once, as Tinsel's max_connection_attempts). */
enum { HL_CONNECT_ATTEMPTS = 50, HL_CONNECT_PAUSE_MS = 100 };

typedef struct {
  char *text;
  size_t len, cap;
} hl_line;

/* DebugLink connections: one per box (boardctrld), each with its links. */
enum { HL_MAX_BOXES = 64, HL_MAX_LINKS = 65 };
typedef struct {
  int fd;
  char addr[280];               /* where it went, for messages */
  unsigned char part[HL_DEBUG_PKT];   /* a packet being read */
  size_t part_len;
  int links;                    /* QueryIn goes to links 0..links-1 (workers and bridge) */
  int within_x, within_y;       /* worker boards of the box */
  int off_x, off_y;             /* its boards' place in the mesh */
  unsigned config;              /* QueryIn's config byte */
  int bridge;                   /* its bridge board's link, or -1 */
  int link_board[HL_MAX_LINKS]; /* board index behind each link, or -1 */
} hl_box;

struct hostlink {
  int fd, dfd;                  /* host link, DebugLink of the first box (-1: none) */
  hl_geometry g;                 /* the machine (hl_open) */
  int boards_x, boards_y, nboards;
  int cores_per_board, threads_per_board;
  uint32_t max_threads;         /* thread addresses are below this */
  int timeout_ms;
  uint32_t instr_bytes;         /* instruction memory per core pair (hl_set_instr_bytes) */
  char err[512];
  /* Board -> host: a message being read, and messages read while the
     library waited for something else (hl_send blocked, hl_load). */
  unsigned char part[HL_MSG_BYTES];
  size_t part_len;
  unsigned char *queue;
  size_t q_head, q_count, q_cap;   /* in messages */
  /* DebugLink: its boxes; each board's box and link; per-thread lines. */
  hl_box *boxes;
  int nboxes;
  int board_box[64], board_link[64];
  hl_line *lines;               /* nboards * threads_per_board */
  unsigned long long stdout_lost;   /* StdOut bytes that could not be kept (out of memory, bad thread) */
  unsigned char *started;       /* per global core: StartCmd acknowledged */
  unsigned char *stored;        /* per global core: Stores its boot loader may hold in its cache */
};

/* Formats the error into h->err; returns -1. */
int hl_fail(hostlink *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Writes all of BUF to FD, reading board messages into the queue meanwhile
   (so a board that sends while the host sends cannot deadlock the link). */
int hl_write_all(hostlink *h, int fd, const void *buf, size_t len, const char *what);
/* Reads one DebugLink packet from box BOX (< 0: any; *FROM says which),
   waiting at most TIMEOUT_MS (< 0: forever): 1, 0 on timeout, -1 on error. */
int hl_debug_read(hostlink *h, int box, int *from, unsigned char pkt[HL_DEBUG_PKT], int timeout_ms);
/* Handles a StdOut packet from box BOX (any other kind is ignored);
   returns bytes of output. */
long hl_debug_take(hostlink *h, int box, const unsigned char pkt[HL_DEBUG_PKT], FILE *out);
/* Connects to ADDR with retries (hl_link.c); -1 with h->err set. */
int hl_connect(hostlink *h, const char *addr, const char *what);
/* hl_open's body: the geometry, the host link, and NBOXES DebugLink boxes
   as BOXES describes them (addr, within_*, off_*, config, links; copied). */
hostlink *hl_open_boxes(const char *host, const hl_geometry *geometry, const hl_box *boxes, int nboxes, char *err,
                        size_t errlen);
/* At close: StdOut bytes never printed (incomplete lines, lost bytes) reported on stderr. */
void hl_debug_close(hostlink *h);
/* The DebugLink handshake (Ready, QueryIn/QueryOut per link of every box,
   EnIdle to the first box's bridge). */
int hl_debug_open(hostlink *h);
/* Milliseconds on a monotonic clock. */
long long hl_now_ms(void);
/* Sends a boot command CMD with N argument words to thread 0 of CORE of (X, Y). */
int hl_boot_cmd(hostlink *h, int x, int y, int core, uint32_t cmd, const uint32_t *args, size_t n);
/* Checks a board position and core: 0, or -1 with the limits in the error. */
int hl_check_core(hostlink *h, int x, int y, int core);
/* Checks a list of global core indices (NULL: all); WHAT names the caller. */
int hl_check_cores(hostlink *h, const int *cores, int ncores, const char *what);

#endif
