/* hl_debug.c: the DebugLink (tinsel.md §4.3) in boardctrld's framing:
 * every packet either way is 5 bytes, {link, payload[4]}, where link is a
 * board's JTAG link within its box and the payload a command padded with
 * zeros. On connecting the server sends Ready (255); the client asks each
 * link QueryIn {0, offset, config} and learns from QueryOut {0, 1 + board
 * id} which board it is (payload 0: a bridge). Then SetDest {1, thread,
 * core (bit 7: every core)} and StdIn {2, byte} go to threads, and StdOut
 * {2, thread, core, byte} comes back. */
#include "hl_internal.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

enum { CMD_QUERY = 0, CMD_SET_DEST = 1, CMD_STDIO = 2, CMD_EN_IDLE = 3, CMD_TEMP = 4, CMD_READY = 255, BROADCAST = 0x80 };

int hl_debug_read(hostlink *h, unsigned char pkt[HL_DEBUG_PKT], int timeout_ms) {
  long long deadline = hl_now_ms() + (timeout_ms < 0 ? 0 : timeout_ms);
  while (h->dpart_len < HL_DEBUG_PKT) {
    int wait = -1;
    if (timeout_ms >= 0) {
      long long left = deadline - hl_now_ms();
      wait = left > 0 ? (int)left : 0;
    }
    struct pollfd p = { .fd = h->dfd, .events = POLLIN };
    int r = poll(&p, 1, wait);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return hl_fail(h, "DebugLink: poll: %s", strerror(errno));
    if (r == 0) return 0;
    ssize_t n = recv(h->dfd, h->dpart + h->dpart_len, HL_DEBUG_PKT - h->dpart_len, MSG_DONTWAIT);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    if (n < 0) return hl_fail(h, "DebugLink: receive: %s", strerror(errno));
    if (n == 0) return hl_fail(h, "DebugLink: the server closed the connection");
    h->dpart_len += (size_t)n;
  }
  memcpy(pkt, h->dpart, HL_DEBUG_PKT);
  h->dpart_len = 0;
  return 1;
}

static int put(hostlink *h, int link, unsigned char p0, unsigned char p1, unsigned char p2) {
  unsigned char pkt[HL_DEBUG_PKT] = { (unsigned char)link, p0, p1, p2, 0 };
  return hl_write_all(h, h->dfd, pkt, sizeof pkt, "DebugLink");
}

int hl_debug_open(hostlink *h) {
  unsigned char pkt[HL_DEBUG_PKT];
  int r = hl_debug_read(h, pkt, h->timeout_ms);
  if (r <= 0 || pkt[1] != CMD_READY)
    return r < 0 ? -1 : hl_fail(h, "DebugLink: no Ready packet from the server within %d ms", h->timeout_ms);
  if (h->nboards > 64) return hl_fail(h, "DebugLink: %d boards; at most 64 links", h->nboards);
  for (int b = 0; b < 64; b++) h->board_link[b] = h->link_board[b] = -1;
  /* One box, as Tinsel's HostLink does it (tinsel.md §11): QueryIn on
     every link, the boards' and one more for the bridge board (a POETS
     box: six workers on links 0-5, the bridge on 6), at offset (0, 0), no
     link disabled; then EnIdle to the bridge, which turns on idle
     detection. A server with no bridge (no answer for the extra link within
     a second of the boards' answers) gets no EnIdle. */
  int links = h->nboards < 64 ? h->nboards + 1 : 64, answers = 0, bridge = -1;
  for (int link = 0; link < links; link++)
    if (put(h, link, CMD_QUERY, 0, 0)) return -1;
  long long bridge_deadline = -1;
  while (answers < links) {
    int wait = h->timeout_ms;
    if (answers >= h->nboards) {   /* only the bridge's answer is missing */
      if (bridge_deadline < 0) bridge_deadline = hl_now_ms() + 1000;
      long long left = bridge_deadline - hl_now_ms();
      if (left <= 0) break;
      wait = (int)left;
    }
    r = hl_debug_read(h, pkt, wait);
    if (r < 0) return -1;
    if (r == 0 && answers >= h->nboards) break;
    if (r == 0) return hl_fail(h, "DebugLink: %d of %d boards answered QueryIn within %d ms", answers, h->nboards, h->timeout_ms);
    if (pkt[1] == CMD_STDIO) { hl_debug_take(h, pkt, stdout); continue; }
    if (pkt[1] != CMD_QUERY || pkt[0] >= 64) return hl_fail(h, "DebugLink: unexpected packet %u from link %u", pkt[1], pkt[0]);
    answers++;
    if (pkt[2] == 0) {   /* a bridge board */
      if (bridge >= 0) return hl_fail(h, "DebugLink: links %d and %u both answered as the bridge board", bridge, pkt[0]);
      bridge = pkt[0];
      continue;
    }
    int id = pkt[2] - 1, x = id & ((1 << h->g.mesh_x_bits_within_box) - 1), y = id >> h->g.mesh_x_bits_within_box;
    if (x >= h->boards_x || y >= h->boards_y)
      return hl_fail(h, "DebugLink: link %u is board (%d, %d), outside the %d x %d mesh", pkt[0], x, y, h->boards_x, h->boards_y);
    h->board_link[y * h->boards_x + x] = pkt[0];
    h->link_board[pkt[0]] = y * h->boards_x + x;
  }
  for (int b = 0; b < h->nboards; b++)
    if (h->board_link[b] < 0) return hl_fail(h, "DebugLink: no link answered as board (%d, %d)", b % h->boards_x, b / h->boards_x);
  if (bridge < 0) return 0;
  if (put(h, bridge, CMD_EN_IDLE, (unsigned char)(h->boards_y << 4 | h->boards_x), 0)) return -1;
  for (;;) {
    r = hl_debug_read(h, pkt, h->timeout_ms);
    if (r < 0) return -1;
    if (r == 0) return hl_fail(h, "DebugLink: the bridge board (link %d) did not answer EnIdle within %d ms", bridge, h->timeout_ms);
    if (pkt[1] == CMD_STDIO) { hl_debug_take(h, pkt, stdout); continue; }
    if (pkt[1] == CMD_QUERY && pkt[0] == bridge) return 0;
    return hl_fail(h, "DebugLink: unexpected packet %u from link %u after EnIdle", pkt[1], pkt[0]);
  }
}

static void put_line(hostlink *h, FILE *out, int b, int core, int thread, const hl_line *l) {
  if (out) fprintf(out, "%d:%d:%d:%d: %.*s\n", b % h->boards_x, b / h->boards_x, core, thread, (int)l->len,
                   l->text ? l->text : "");
}

long hl_debug_take(hostlink *h, const unsigned char pkt[HL_DEBUG_PKT], FILE *out) {
  if (pkt[1] != CMD_STDIO) return 0;
  if (pkt[0] >= 64 || h->link_board[pkt[0]] < 0 || pkt[3] >= h->cores_per_board || pkt[2] >= TinselThreadsPerCore) {
    h->stdout_lost++;   /* from no thread of ours: reported by hl_close */
    return 0;
  }
  int b = h->link_board[pkt[0]], thread = pkt[2], core = pkt[3];
  hl_line *l = &h->lines[(size_t)b * h->threads_per_board + (size_t)core * TinselThreadsPerCore + (size_t)thread];
  if (pkt[4] != '\n') {
    if (l->len + 1 >= l->cap) {
      size_t cap = l->cap ? 2 * l->cap : 80;
      char *t = realloc(l->text, cap);
      if (!t) { h->stdout_lost++; return 1; }   /* out of memory: the byte is lost (and counted), not the run */
      l->text = t;
      l->cap = cap;
    }
    l->text[l->len++] = (char)pkt[4];
    return 1;
  }
  put_line(h, out, b, core, thread, l);
  l->len = 0;
  return 1;
}

/* Prints each thread's incomplete line (with a newline) to OUT, or,
   when OUT is NULL, only counts its bytes; returns the bytes. */
static unsigned long long incomplete_lines(hostlink *h, FILE *out) {
  unsigned long long bytes = 0;
  if (h->lines)
    for (int b = 0; b < h->nboards; b++)
      for (int i = 0; i < h->threads_per_board; i++) {
        hl_line *l = &h->lines[(size_t)b * h->threads_per_board + (size_t)i];
        if (!l->len) continue;
        bytes += l->len;
        if (out) {
          put_line(h, out, b, i / TinselThreadsPerCore, i % TinselThreadsPerCore, l);
          l->len = 0;
        }
      }
  if (out && bytes) fflush(out);
  return bytes;
}

void hl_end_stdout(hostlink *h, FILE *out) { incomplete_lines(h, out); }

void hl_debug_close(hostlink *h) {
  unsigned long long left = incomplete_lines(h, NULL);
  if (left)
    fprintf(stderr, "hostlink: %llu bytes of the threads' StdOut, on lines without their newline, were not printed "
            "(hl_end_stdout prints them)\n", left);
  if (h->stdout_lost)
    fprintf(stderr, "hostlink: %llu bytes of the threads' StdOut were lost (out of memory, or from a thread "
            "outside the %d boards of %d cores)\n", h->stdout_lost, h->nboards, h->cores_per_board);
}

int hl_sync_stdout(hostlink *h, FILE *out) {
  if (h->dfd < 0) return hl_fail(h, "hl_sync_stdout: no DebugLink is open");
  for (int b = 0; b < h->nboards; b++)
    if (put(h, h->board_link[b], CMD_TEMP, 0, 0)) return -1;
  int answers = 0;
  unsigned char pkt[HL_DEBUG_PKT];
  while (answers < h->nboards) {
    int r = hl_debug_read(h, pkt, h->timeout_ms);
    if (r < 0) return -1;
    if (r == 0)
      return hl_fail(h, "DebugLink: %d of %d boards answered TempIn within %d ms", answers, h->nboards, h->timeout_ms);
    if (pkt[1] == CMD_TEMP) answers++;
    else hl_debug_take(h, pkt, out);
  }
  if (out) fflush(out);
  return 0;
}

long hl_poll_stdout(hostlink *h, FILE *out) {
  if (h->dfd < 0) return hl_fail(h, "hl_poll_stdout: no DebugLink is open");
  long seen = 0;
  unsigned char pkt[HL_DEBUG_PKT];
  int r;
  while ((r = hl_debug_read(h, pkt, 0)) > 0) seen += hl_debug_take(h, pkt, out);
  if (r < 0) return -1;
  if (seen) fflush(out);
  return seen;
}

int hl_put_stdin(hostlink *h, int x, int y, int core, int thread, uint8_t byte) {
  if (h->dfd < 0) return hl_fail(h, "hl_put_stdin: no DebugLink is open");
  if (hl_check_core(h, x, y, core < 0 ? 0 : core)) return -1;
  if (thread < 0 || thread >= TinselThreadsPerCore)
    return hl_fail(h, "hl_put_stdin: thread %d: a core has threads 0..%d", thread, TinselThreadsPerCore - 1);
  int link = h->board_link[y * h->boards_x + x];
  if (put(h, link, CMD_SET_DEST, (unsigned char)thread, core < 0 ? BROADCAST : (unsigned char)core)) return -1;
  return put(h, link, CMD_STDIO, byte, 0);
}
