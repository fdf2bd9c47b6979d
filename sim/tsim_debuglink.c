/* tsim_debuglink.c: the DebugLink of one board (tsim_debuglink.h).

   Framing, as boardctrld's: every packet either way is 5 bytes, {link,
   payload[4]}: link is the board's JTAG link within its box (here the
   board's index in the run), the payload a DebugLink command padded with
   zeros. On connecting
   the client gets {0, Ready = 255}. Commands (tinsel.md §4.3, §11): QueryIn
   {0, offset, config} -> QueryOut {0, 1 + board id}, or {0, 0} on the
   bridge's link (the one after the boards'); EnIdle {3, mesh size} ->
   QueryOut as QueryIn (idle detection is always on); SetDest {1, thread, core}
   (core bit 7: every core); StdIn {2, byte} -> the FIFO of each destination
   thread, read through CSR FromUart; TempIn {4} -> TempOut {4, 40 + 128}
   (a fixed 40 degrees C: the model has no sensor). Threads' ToUart bytes go
   out as StdOut {2, thread, core, byte}.

   QueryIn's config byte is obeyed as Tinsel's DebugLink obeys it
   (rtl/DebugLink.bsv): bits 0-3 disable the board's north, south, east,
   west link when the board is on that side of its box (every QueryIn sets
   them anew), bit 4 reserves the extra send slot (the board's first
   QueryIn decides, as the mailboxes size their receive pool once). The
   offset byte (board ids of a multi-box cluster) is not modelled: a
   non-zero offset is reported once and otherwise ignored. */
#include "tsim_debuglink.h"

#include "Vtsim_top__Dpi.h"
#include "tinsel_config.h"
#include "tsim_boards.h"
#include "tsim_hostlink.h"
#include "tsim_run.h"
#include "tsim_socket.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { PKT = 5, CMD_QUERY = 0, CMD_SET_DEST = 1, CMD_STDIO = 2, CMD_EN_IDLE = 3, CMD_TEMP = 4, CMD_READY = 255 };
enum { FIFO = 64, NUM_THREADS = TSIM_THREADS, BROADCAST = 0x80, TEMP_C = 40 };
enum { IN_CAP = 4096, LINE = 128 };
enum { CFG_LINKS = 0xf, CFG_EXTRA_SLOT = 0x10 };

static struct {
  const char *spec;
  int listen_fd, fd;
  unsigned char in[IN_CAP];
  size_t in_len;
  unsigned char *out;           /* StdOut and replies waiting to be written */
  size_t out_len, out_cap;
  unsigned dest_thread[TSIM_MAX_BOARDS], dest_core[TSIM_MAX_BOARDS];   /* SetDest, per board */
  /* Per-thread StdIn FIFOs (FromUart). */
  uint8_t fifo[NUM_THREADS][FIFO];
  uint8_t head[NUM_THREADS], count[NUM_THREADS];
  /* QueryIn's config per board: the links it disabled (1 << TSIM_LINK_*),
     the receive pool (0 no QueryIn yet, 1 default, 2 extra send slot). */
  unsigned link_off[TSIM_MAX_BOARDS], pool[TSIM_MAX_BOARDS], held[TSIM_MAX_BOARDS];
  int offset_said;
  int extra_said;        /* the extra send slot said once for the run */
  unsigned config_gen;   /* link_off or pool changed this many times */
  /* Lines of the threads' StdOut without a client (stdout), per thread. */
  char line[NUM_THREADS][LINE];
  unsigned short line_len[NUM_THREADS];
} dl = { .listen_fd = -1, .fd = -1 };

int tsim_debuglink_listen(const char *spec) {
  char err[256];
  dl.spec = spec;
  dl.listen_fd = tsim_listen(spec, err, sizeof err);
  if (dl.listen_fd < 0) {
    fprintf(stderr, "tsim: debuglink: %s\n", err);
    return -1;
  }
  fprintf(stderr, "tsim: debuglink: listening on %s\n", spec);
  return 0;
}

static void put(unsigned link, unsigned char p0, unsigned char p1, unsigned char p2, unsigned char p3) {
  if (dl.out_len + PKT > dl.out_cap) {
    dl.out_cap = dl.out_cap ? 2 * dl.out_cap : 4096;
    dl.out = realloc(dl.out, dl.out_cap);
    if (!dl.out) {
      fprintf(stderr, "tsim: debuglink: out of memory for %zu bytes of StdOut\n", dl.out_cap);
      exit(70);
    }
  }
  unsigned char *o = dl.out + dl.out_len;
  o[0] = (unsigned char)link; o[1] = p0; o[2] = p1; o[3] = p2; o[4] = p3;
  dl.out_len += PKT;
}

static unsigned long long lost_bytes;   /* StdOut bytes a client never got */

static void drop_client(void) {
  unsigned long long lost = 0;
  for (size_t i = 0; i + PKT <= dl.out_len; i += PKT) lost += dl.out[i + 1] == CMD_STDIO;
  if (lost)
    fprintf(stderr, "tsim: debuglink: error: %llu bytes of the threads' StdOut were not delivered: the client "
            "closed the link or stopped reading\n", lost);
  lost_bytes += lost;
  if (dl.fd >= 0) close(dl.fd);
  dl.fd = -1;
  dl.in_len = 0;
  dl.out_len = 0;
}

static int fifo_room(unsigned id) { return dl.count[id] < FIFO; }

/* StdIn to the destination thread(s) of board B: 0 when a FIFO is full (the packet waits). */
static int std_in(unsigned b, uint8_t byte) {
  unsigned t = dl.dest_thread[b] & (TinselThreadsPerCore - 1), dc = dl.dest_core[b];
  unsigned first = dc & BROADCAST ? 0 : dc, last = dc & BROADCAST ? TinselCoresPerBoard - 1 : first;
  if (last >= TinselCoresPerBoard) {
    fprintf(stderr, "tsim: debuglink: StdIn to core %u, but a board has %u cores: ignored\n", first, TinselCoresPerBoard);
    return 1;
  }
  unsigned base = b * TinselCoresPerBoard;   /* run-wide core numbers */
  for (unsigned c = first; c <= last; c++)
    if (!fifo_room((base + c) << TinselLogThreadsPerCore | t)) return 0;
  for (unsigned c = first; c <= last; c++) {
    unsigned id = (base + c) << TinselLogThreadsPerCore | t;
    dl.fifo[id][(dl.head[id] + dl.count[id]) % FIFO] = byte;
    dl.count[id]++;
  }
  return 1;
}

/* The bridge board's link: the one after the workers', as on a POETS box
   (links 0-5 the six workers, 6 the bridge). It answers QueryIn with 0 and
   takes EnIdle; it has no threads. */
static unsigned bridge_link(void) { return tsim_boards(); }

static const char *const side_name[] = {"north", "south", "east", "west"};

/* QueryIn {0, OFFSET, CONFIG} to board B: Tinsel's link disables (a side
   of the box the board is on) and the extra send slot; said on stderr
   when it changes what the board does. */
static void query_config(unsigned b, unsigned offset, unsigned config) {
  unsigned x = b % tsim_boards_x(), y = b / tsim_boards_x(), off = 0;
  if ((config & 1) && y == tsim_boards_y() - 1) off |= 1u << TSIM_LINK_N;
  if ((config & 2) && y == 0) off |= 1u << TSIM_LINK_S;
  if ((config & 4) && x == tsim_boards_x() - 1) off |= 1u << TSIM_LINK_E;
  if ((config & 8) && x == 0) off |= 1u << TSIM_LINK_W;
  if (off != dl.link_off[b]) {
    char names[64] = "";
    size_t n = 0;
    for (unsigned d = 0; d < TSIM_LINKS; d++)
      if (off >> d & 1) n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", side_name[d]);
    fprintf(stderr, "tsim: debuglink: QueryIn config 0x%02x on link %u: board %u (x %u, y %u of the %ux%u box): %s%s\n",
            config, b, b, x, y, tsim_boards_x(), tsim_boards_y(), off ? "links disabled: " : "every link enabled",
            names);
  }
  dl.config_gen += off != dl.link_off[b] || !dl.pool[b];
  dl.link_off[b] = off;
  if (!dl.pool[b]) {
    dl.pool[b] = config & CFG_EXTRA_SLOT ? 2 : 1;
    if ((config & CFG_EXTRA_SLOT) && !dl.extra_said++)  /* the first board: a host asks the same of each */
      fprintf(stderr, "tsim: debuglink: QueryIn config 0x%02x on link %u: board %u reserves the extra send slot "
              "(slots %u..%u; the receive pool is slots %u..%u), and so does any board asking after it\n", config, b,
              b, TinselThreadsPerMailbox, 2 * TinselThreadsPerMailbox - 1, 2 * TinselThreadsPerMailbox,
              TinselMsgsPerMailbox - 1);
  }
  if (offset && !dl.offset_said) {
    fprintf(stderr, "tsim: debuglink: QueryIn offset 0x%02x on link %u ignored: board ids offset by the box's "
            "place in a cluster are not modelled (ids stay as within one box)\n", offset, b);
    dl.offset_said = 1;
  }
}

unsigned tsim_debuglink_links_off(unsigned b) { return b < TSIM_MAX_BOARDS ? dl.link_off[b] : 0; }

unsigned tsim_debuglink_config_gen(void) { return dl.config_gen; }

void tsim_debuglink_config_get(unsigned *links_off, unsigned *pool) {
  memcpy(links_off, dl.link_off, sizeof dl.link_off);
  memcpy(pool, dl.pool, sizeof dl.pool);
}

void tsim_debuglink_config_set(const unsigned *links_off, const unsigned *pool) {
  memcpy(dl.link_off, links_off, sizeof dl.link_off);
  memcpy(dl.pool, pool, sizeof dl.pool);
}

void tsim_debuglink_held(unsigned b, unsigned mask) {
  if (b < TSIM_MAX_BOARDS) dl.held[b] |= mask;
}

unsigned tsim_mbox_pool_config(unsigned tile) {
  unsigned b = tile / TinselMailboxesPerBoard;
  return b < TSIM_MAX_BOARDS ? dl.pool[b] : 0;
}

/* Obey one packet; 0 when it must wait (StdIn FIFO full). */
static int obey(const unsigned char *p) {
  unsigned b = p[0];
  if (b == bridge_link()) {
    switch (p[1]) {
    case CMD_QUERY: case CMD_EN_IDLE: put(b, CMD_QUERY, 0, 0, 0); return 1;   /* QueryOut 0: a bridge */
    case CMD_TEMP: put(b, CMD_TEMP, TEMP_C + 128, 0, 0); return 1;
    default:
      fprintf(stderr, "tsim: debuglink: command %u for link %u ignored: that is the bridge board, which has no threads\n",
              p[1], b);
      return 1;
    }
  }
  if (b >= tsim_boards()) {
    fprintf(stderr, "tsim: debuglink: packet for link %u ignored: this model has %u board(s) on links 0..%u and its "
            "bridge on link %u\n", b, tsim_boards(), tsim_boards() - 1, bridge_link());
    return 1;
  }
  /* Board id within the box: {Y, X} with MeshXBitsWithinBox bits of X; a
     mesh wider than a box (--config cluster, served as one box) MeshXBits. */
  unsigned xbits = tsim_boards_x() > 1u << TinselMeshXBitsWithinBox ? TinselMeshXBits : TinselMeshXBitsWithinBox;
  unsigned id = (b / tsim_boards_x()) << xbits | b % tsim_boards_x();
  switch (p[1]) {
  case CMD_QUERY: query_config(b, p[2], p[3]); put(b, CMD_QUERY, (unsigned char)(1 + id), 0, 0); return 1;
  case CMD_EN_IDLE: put(b, CMD_QUERY, (unsigned char)(1 + id), 0, 0); return 1;   /* idle detection is always on */
  case CMD_SET_DEST: dl.dest_thread[b] = p[2]; dl.dest_core[b] = p[3]; return 1;
  case CMD_STDIO: return std_in(b, p[2]);
  case CMD_TEMP: put(b, CMD_TEMP, TEMP_C + 128, 0, 0); return 1;
  default:
    fprintf(stderr, "tsim: debuglink: unknown command %u ignored (known: 0 QueryIn, 1 SetDest, 2 StdIn, 3 EnIdle, 4 TempIn)\n", p[1]);
    return 1;
  }
}

void tsim_debuglink_io(void) {
  if (dl.listen_fd < 0) return;
  if (dl.fd < 0) {
    dl.fd = tsim_accept(dl.listen_fd, 0);
    if (dl.fd < 0) return;
    put(0, CMD_READY, 0, 0, 0);
  }
  long n = tsim_read_some(dl.fd, dl.in + dl.in_len, IN_CAP - dl.in_len);
  if (n < 0) { drop_client(); return; }   /* the client went: StdOut goes to stdout again */
  dl.in_len += (size_t)n;
  size_t used = 0;
  while (dl.in_len - used >= PKT && obey(dl.in + used)) used += PKT;
  memmove(dl.in, dl.in + used, dl.in_len - used);
  dl.in_len -= used;
  if (dl.out_len) {
    long w = tsim_write_some(dl.fd, dl.out, dl.out_len);
    if (w < 0) { drop_client(); return; }
    memmove(dl.out, dl.out + w, dl.out_len - (size_t)w);
    dl.out_len -= (size_t)w;
  }
}

int tsim_debuglink_pollfd(struct pollfd *p) {
  if (dl.listen_fd < 0) return 0;
  p->fd = dl.fd >= 0 ? dl.fd : dl.listen_fd;
  p->events = (short)((dl.fd < 0 || dl.in_len < IN_CAP ? POLLIN : 0) | (dl.out_len ? POLLOUT : 0));
  p->revents = 0;
  return 1;
}

void tsim_debuglink_flush(void) {
  while (dl.fd >= 0 && dl.out_len) {
    struct pollfd p = { .fd = dl.fd, .events = POLLOUT };
    if (poll(&p, 1, 1000) <= 0) break;   /* a client that stopped reading: give up after a second */
    tsim_debuglink_io();
  }
}

void tsim_debuglink_close(void) {
  for (unsigned b = 0; b < TSIM_MAX_BOARDS; b++)
    for (unsigned d = 0; d < TSIM_LINKS; d++)
      if (dl.held[b] >> d & 1)
        fprintf(stderr, "tsim: debuglink: board %u: a message waited in the board router for its %s link, which "
                "QueryIn's config disabled\n", b, side_name[d]);
  tsim_debuglink_flush();
  drop_client();
  if (dl.spec) tsim_unlisten(dl.spec, dl.listen_fd);
  dl.listen_fd = -1;
  free(dl.out);
  dl.out = NULL;
  dl.out_cap = 0;
}

/* Thread ID's pending StdOut line to stdout. */
static void line_out(unsigned id) {
  if (!dl.line_len[id]) return;
  fwrite(dl.line[id], 1, dl.line_len[id], stdout);
  dl.line_len[id] = 0;
}

void tsim_debuglink_stdout_flush(unsigned core, unsigned thread) {
  unsigned id = core << TinselLogThreadsPerCore | thread;
  if (id < NUM_THREADS) line_out(id);
}

void tsim_debuglink_stdout_flush_all(void) {
  for (unsigned id = 0; id < NUM_THREADS; id++) line_out(id);
}

void tsim_debuglink_stdout(unsigned core, unsigned thread, uint8_t byte) {
  if (dl.fd < 0) {
    /* A line at a time per thread, so that threads printing at once do
       not mix their bytes (a thread's own order is kept: tsim_emit and the
       end of the run flush its partial line). */
    unsigned id = core << TinselLogThreadsPerCore | thread;
    if (id >= NUM_THREADS) { putchar(byte); return; }
    dl.line[id][dl.line_len[id]++] = (char)byte;
    if (byte == '\n' || dl.line_len[id] == LINE) line_out(id);
    return;
  }
  /* CORE is run-wide: its board is the link. */
  put(core / TinselCoresPerBoard, CMD_STDIO, (unsigned char)thread, (unsigned char)(core % TinselCoresPerBoard), byte);
}

unsigned long long tsim_debuglink_lost(void) { return lost_bytes; }

unsigned tsim_uart_get(unsigned tile, unsigned thread) {
  unsigned id = tile << TinselLogThreadsPerMailbox | thread;
  if (id >= NUM_THREADS || dl.count[id] == 0) return 0;
  uint8_t b = dl.fifo[id][dl.head[id]];
  dl.head[id] = (uint8_t)((dl.head[id] + 1) % FIFO);
  dl.count[id]--;
  return 0x100u | b;
}
