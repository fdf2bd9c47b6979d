/*
 * hostlink.h: the host's side of Tinsel's host link, in C (libhostlink.a).
 *
 * One API for the cycle model (tsim serves a board or a box over local
 * sockets) and, later, real POETS boxes (pciestreamd's socket and
 * boardctrld's DebugLink). It mirrors Tinsel's HostLink (tinsel.md §4.2):
 * the same wire format (host -> boards: a 16-byte header {dest, 0,
 * (flits-1) << 24, key} then the flits; boards -> host: every message
 * padded to 64 bytes), the same boot commands (§1.9) and the same
 * DebugLink commands (§4.3).
 *
 * Every function that can fail returns -1 and leaves a message naming what
 * failed (socket, thread address, sizes, limits) in hl_error(). Nothing
 * here exits or prints.
 */
#ifndef HOSTLINK_H
#define HOSTLINK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct hostlink hostlink;

/* The machine behind the link: its worker-board mesh and the board-level
 * thread-address layout of its boards/ configuration (tinsel.md §2.4),
 * which differs between configurations: a tile has 4 cores per board and
 * one DRAM, a board 64 cores and two. Per-core facts (threads per core,
 * flits, messages, boot commands, instruction memory) are the same in
 * every configuration and come from the tinsel_config.h the library is
 * built against. */
typedef struct {
  int boards_x, boards_y;        /* worker boards behind the link (at most MeshXLen x MeshYLen) */
  int mesh_x_bits, mesh_y_bits;  /* MeshXBits, MeshYBits: a board's coordinates in a thread address */
  int mesh_x_bits_within_box;    /* MeshXBitsWithinBox: how the DebugLink numbers boards */
  int log_cores_per_board;       /* LogCoresPerBoard */
  int log_cores_per_dram;        /* LogCoresPerDRAM: hl_load_elf stores data once per DRAM */
  uint32_t routing_key_bit;      /* RoutingKeyBit: the destination of a key send */
} hl_geometry;

/* Fills G from boards/ configuration CONFIG (a name such as "tile",
 * "board", "box", or a .cfg path; libboards.a), the whole board mesh of the
 * configuration. Returns 0, or -1 with a message in ERR. */
int hl_geometry_load(const char *config, hl_geometry *g, char *err, size_t errlen);

/* Connects. HOST is where messages go: "unix:PATH" (a socket file) or
 * "unix:@NAME" (an abstract socket, as pciestreamd's "@pciestream").
 * DEBUG is the DebugLink: "unix:PATH", "unix:@NAME" or "HOST:PORT" (TCP,
 * boardctrld); NULL: none (stdout and stdin of threads then unavailable).
 * GEOMETRY is the machine behind the link (copied). On failure returns
 * NULL and writes why into ERR. */
hostlink *hl_open(const char *host, const char *debug, const hl_geometry *geometry, char *err, size_t errlen);
void hl_close(hostlink *h);
const char *hl_error(const hostlink *h);

/* The geometry the link was opened with. */
const hl_geometry *hl_geometry_of(const hostlink *h);
/* Thread addresses (tinsel.md §2.4) in the link's geometry, as HostLink's
 * toAddr/fromAddr. */
uint32_t hl_to_addr(const hostlink *h, int board_x, int board_y, int core, int thread);
void hl_from_addr(const hostlink *h, uint32_t addr, int *board_x, int *board_y, int *core, int *thread);

/* ------------------------------------------------------------ messages */

/* Sends FLITS (1..4) flits of MSG (16 bytes each) to thread DEST; blocks
 * while the link is full. */
int hl_send(hostlink *h, uint32_t dest, int flits, const void *msg);
/* Same, addressed by a routing key (the board router's records decide). */
int hl_key_send(hostlink *h, uint32_t key, int flits, const void *msg);
/* 1 if a message from the boards is waiting, 0 if not, -1 on error. */
int hl_can_recv(hostlink *h);
/* Receives one message (always 64 bytes at MSG). Waits at most TIMEOUT_MS
 * (< 0: forever); returns 1 with a message, 0 on timeout, -1 on error
 * (including the server going away). */
int hl_recv(hostlink *h, void *msg, int timeout_ms);

/* -------------------------------------------------------- boot (§1.9) */

/* The boot loader's commands to thread 0 of CORE on board (X, Y). Words
 * are packed up to the boot loader's limit per message. */
int hl_set_addr(hostlink *h, int x, int y, int core, uint32_t addr);
int hl_write_instrs(hostlink *h, int x, int y, int core, uint32_t addr, const uint32_t *words, size_t n);
int hl_store(hostlink *h, int x, int y, int core, uint32_t addr, const uint32_t *words, size_t n);
int hl_load(hostlink *h, int x, int y, int core, uint32_t addr, uint32_t *words, size_t n);

/* Loads an ELF built with firmware/link/app.ld: `.text` into the
 * instruction memory of every core in CORES (board-major list of NCORES
 * global core indices, board = y * boards_x + x; NULL: every core of every
 * board), the other loadable sections once per DRAM through the first listed
 * core of that DRAM. */
int hl_load_elf(hostlink *h, const char *elf_path, const int *cores, int ncores);
/* StartCmd to thread 0 of each listed core (NULL: all) with NTHREADS
 * further threads to create, and waits for every ack. First, every core
 * that hl_store wrote through and that is not being started gets a
 * one-word hl_load, so that its boot loader writes its data cache back:
 * caches are not coherent, and a started core's boot loader flushes only
 * its own before its ack. */
int hl_start(hostlink *h, const int *cores, int ncores, int nthreads);
/* The "go" byte to thread 0 of every started core (DebugLink StdIn). */
int hl_go(hostlink *h);

/* ---------------------------------------------------- DebugLink (§4.3) */

/* Copies whatever StdOut bytes the threads wrote to OUT, each line
 * prefixed "x:y:c:t: " as Tinsel's host does; returns the bytes seen (0 if
 * none), or -1. */
long hl_poll_stdout(hostlink *h, FILE *out);
/* Like hl_poll_stdout, but returns only once every line the threads
 * printed before the call is out: a TempIn to each board, whose TempOut
 * the board sends after the StdOut bytes it already has. 0, or -1 (a
 * board that does not answer within the timeout). */
int hl_sync_stdout(hostlink *h, FILE *out);
/* Prints each thread's line still without its newline to OUT, with one
 * added (at the end of a run). hl_close reports on stderr the bytes of
 * lines never printed and any bytes that could not be kept. */
void hl_end_stdout(hostlink *h, FILE *out);
/* One StdIn byte to thread THREAD of every core of board (X, Y)
 * (SetDest broadcast + StdIn), or to one core when CORE >= 0. */
int hl_put_stdin(hostlink *h, int x, int y, int core, int thread, uint8_t byte);

/* ------------------------------------------------------ options, cluster */

/* What hl_open_opts sends in each DebugLink QueryIn {0, offset, config}
 * (tinsel.md §11; Tinsel's rtl/DebugLink.bsv): CONFIG bits 0-3 disable the
 * links on the north, south, east, west side of the box (boards on that
 * side), bit 4 (HL_EXTRA_SEND_SLOT) reserves the extra send slot (slot
 * 64 + t of thread t, tinselSendSlotExtra; the receive pool shrinks). */
enum { HL_LINKS_NORTH = 1, HL_LINKS_SOUTH = 2, HL_LINKS_EAST = 4, HL_LINKS_WEST = 8, HL_EXTRA_SEND_SLOT = 0x10 };
typedef struct {
  unsigned query_config;   /* QueryIn's config byte (hl_open: 0) */
} hl_options;
/* hl_open with options (NULL: as hl_open). */
hostlink *hl_open_opts(const char *host, const char *debug, const hl_geometry *geometry, const hl_options *opts,
                       char *err, size_t errlen);

/* A multi-box cluster reached as Tinsel's HostLink reaches it (tinsel.md
 * §11): the local machine must be one of the configuration's BoxHosts
 * (its hostname, lower-cased, without the domain), at box X 0; the boxes
 * used are the BOXES_X x BOXES_Y sub-mesh from it; the DebugLink is a TCP
 * connection to boardctrld on every one of them (NAME:10101), the host
 * link the local pciestreamd (unix:@pciestream). Every box gets QueryIn
 * on each of its links (its workers and its bridge) with its boards'
 * offset in the mesh and the sandbox config HostLink sends (the links
 * facing boxes outside the sub-mesh disabled; HL_EXTRA_SEND_SLOT on
 * request); then EnIdle to the bridge of the first box. */
typedef struct {
  const char *config;       /* boards/ configuration with BoxMeshXLen, BoxMeshYLen, BoxHosts ("cluster") */
  int boxes_x, boxes_y;     /* the sub-mesh of boxes to use (0: 1) */
  int extra_send_slot;      /* QueryIn config bit 4 */
  /* Overrides (NULL: the environment variable named, else the default):
   * HOSTNAME (HOSTLINK_HOSTNAME) the local box's name instead of
   * gethostname(); BOX_ADDRS (HOSTLINK_BOX_ADDRS) where boxes' boardctrlds
   * listen, "NAME=HOST:PORT,NAME=HOST:PORT..." (boxes not named: NAME:10101),
   * so a simulation or a test can stand in for the cluster; HOST
   * (HOSTLINK_HOST) the host link instead of unix:@pciestream. */
  const char *hostname, *box_addrs, *host;
} hl_cluster;
hostlink *hl_open_cluster(const hl_cluster *c, char *err, size_t errlen);
/* The DebugLink connections hl_open made (1, or one per box of a cluster)
 * and where box I's went ("HOST:PORT" or the unix: address). */
int hl_boxes(const hostlink *h);
const char *hl_box_addr(const hostlink *h, int i);

/* Helpers of hl_open_cluster, for tests and fuzzing: NAME as HostLink
 * compares box names (lower case, up to the first '.') into OUT; where
 * box NAME's boardctrld listens given MAP ("NAME=HOST:PORT,...", or NULL):
 * its entry, else NAME:10101. 0, or -1 with why in ERR (a malformed MAP,
 * a name or address longer than OUTLEN - 1). */
int hl_box_name(const char *name, char *out, size_t outlen, char *err, size_t errlen);
int hl_box_lookup(const char *map, const char *name, char *out, size_t outlen, char *err, size_t errlen);

/* ------------------------------------------------------------ settings */

/* How long hl_load, hl_start and the DebugLink handshake in hl_open wait
 * for the boards before failing (default 120000 ms: the cycle model is
 * slow). */
int hl_set_timeout(hostlink *h, int timeout_ms);
/* The boards' instruction memory per core pair in bytes (default real
 * Tinsel's TinselInstrBytesPerCore; the cycle model's `tsim --imem enlarged`
 * has 1 << (EnlargedLogInstrsPerCore + 2)). hl_write_instrs and hl_load_elf
 * check code against it. */
int hl_set_instr_bytes(hostlink *h, uint32_t bytes);

#endif
