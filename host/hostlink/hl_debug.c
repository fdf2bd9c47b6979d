/* hl_debug.c: the DebugLink (tinsel.md §4.3), one connection per box, in
 * boardctrld's framing:
 * every packet either way is 5 bytes, {link, payload[4]}, where link is a
 * board's JTAG link within its box and the payload a command padded with
 * zeros. On connecting the server sends Ready (255); the client asks each
 * link QueryIn {0, offset, config} and learns from QueryOut {0, 1 + board
 * id within the box} which board it is (payload 0: a bridge). Then SetDest {1, thread,
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

/* Reads from box ONLY (or any box, ONLY < 0) until one packet is whole. */
int hl_debug_read(hostlink *h, int only, int *from, unsigned char pkt[HL_DEBUG_PKT], int timeout_ms) {
  long long deadline = hl_now_ms() + (timeout_ms < 0 ? 0 : timeout_ms);
  struct pollfd p[HL_MAX_BOXES];
  int first = only < 0 ? 0 : only, last = only < 0 ? h->nboxes - 1 : only;
  if (first > last || last >= h->nboxes) return hl_fail(h, "DebugLink: no box %d (%d open)", only, h->nboxes);
  for (;;) {
    for (int b = first; b <= last; b++)
      if (h->boxes[b].part_len == HL_DEBUG_PKT) {
        memcpy(pkt, h->boxes[b].part, HL_DEBUG_PKT);
        h->boxes[b].part_len = 0;
        if (from) *from = b;
        return 1;
      }
    int wait = -1;
    if (timeout_ms >= 0) {
      long long left = deadline - hl_now_ms();
      wait = left > 0 ? (int)left : 0;
    }
    int n = 0;
    for (int b = first; b <= last; b++) p[n++] = (struct pollfd){ .fd = h->boxes[b].fd, .events = POLLIN };
    int r = poll(p, (nfds_t)n, wait);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return hl_fail(h, "DebugLink: poll: %s", strerror(errno));
    if (r == 0) return 0;
    for (int i = 0; i < n; i++) {
      if (!p[i].revents) continue;
      hl_box *x = &h->boxes[first + i];
      ssize_t got = recv(x->fd, x->part + x->part_len, HL_DEBUG_PKT - x->part_len, MSG_DONTWAIT);
      if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
      if (got < 0) return hl_fail(h, "DebugLink %s: receive: %s", x->addr, strerror(errno));
      if (got == 0) return hl_fail(h, "DebugLink %s: the server closed the connection", x->addr);
      x->part_len += (size_t)got;
    }
  }
}

static int put(hostlink *h, int box, int link, unsigned char p0, unsigned char p1, unsigned char p2) {
  unsigned char pkt[HL_DEBUG_PKT] = { (unsigned char)link, p0, p1, p2, 0 };
  return hl_write_all(h, h->boxes[box].fd, pkt, sizeof pkt, "DebugLink");
}

/* Box BOX's answers to QueryIn on its links: which link is which board. */
static int box_answers(hostlink *h, int bi) {
  hl_box *x = &h->boxes[bi];
  unsigned char pkt[HL_DEBUG_PKT];
  int workers = x->within_x * x->within_y, answers = 0;
  long long bridge_deadline = -1;
  /* A server with no bridge (no answer for the extra link within a second
     of the boards' answers) gets no EnIdle. */
  while (answers < x->links) {
    int wait = h->timeout_ms;
    if (answers >= workers) {   /* only the bridge's answer is missing */
      if (bridge_deadline < 0) bridge_deadline = hl_now_ms() + 1000;
      long long left = bridge_deadline - hl_now_ms();
      if (left <= 0) break;
      wait = (int)left;
    }
    int r = hl_debug_read(h, bi, NULL, pkt, wait);
    if (r < 0) return -1;
    if (r == 0 && answers >= workers) break;
    if (r == 0)
      return hl_fail(h, "DebugLink %s: %d of its %d boards answered QueryIn within %d ms", x->addr, answers, workers,
                     h->timeout_ms);
    if (pkt[1] == CMD_STDIO) { hl_debug_take(h, bi, pkt, stdout); continue; }
    if (pkt[1] != CMD_QUERY || pkt[0] >= x->links)
      return hl_fail(h, "DebugLink %s: unexpected packet %u from link %u (QueryIn went to links 0..%d)", x->addr, pkt[1],
                     pkt[0], x->links - 1);
    answers++;
    if (pkt[2] == 0) {   /* a bridge board */
      if (x->bridge >= 0)
        return hl_fail(h, "DebugLink %s: links %d and %u both answered as the bridge board", x->addr, x->bridge, pkt[0]);
      x->bridge = pkt[0];
      continue;
    }
    int id = pkt[2] - 1, sx = id & ((1 << h->g.mesh_x_bits_within_box) - 1), sy = id >> h->g.mesh_x_bits_within_box;
    if (sx >= x->within_x || sy >= x->within_y)
      return hl_fail(h, "DebugLink %s: link %u is board (%d, %d) of its box, outside the box's %d x %d boards", x->addr,
                     pkt[0], sx, sy, x->within_x, x->within_y);
    int bx = x->off_x + sx, by = x->off_y + sy;
    if (bx >= h->boards_x || by >= h->boards_y)
      return hl_fail(h, "DebugLink %s: link %u is board (%d, %d), outside the %d x %d mesh", x->addr, pkt[0], bx, by,
                     h->boards_x, h->boards_y);
    int b = by * h->boards_x + bx;
    if (h->board_link[b] >= 0)
      return hl_fail(h, "DebugLink %s: link %u and another both answered as board (%d, %d)", x->addr, pkt[0], bx, by);
    h->board_box[b] = bi;
    h->board_link[b] = pkt[0];
    x->link_board[pkt[0]] = b;
  }
  return 0;
}

int hl_debug_open(hostlink *h) {
  unsigned char pkt[HL_DEBUG_PKT];
  if (h->nboards > 64) return hl_fail(h, "DebugLink: %d boards; at most 64", h->nboards);
  for (int b = 0; b < 64; b++) h->board_box[b] = h->board_link[b] = -1;
  for (int bi = 0; bi < h->nboxes; bi++) {
    hl_box *x = &h->boxes[bi];
    for (int l = 0; l < HL_MAX_LINKS; l++) x->link_board[l] = -1;
    x->bridge = -1;
    int r = hl_debug_read(h, bi, NULL, pkt, h->timeout_ms);
    if (r <= 0 || pkt[1] != CMD_READY)
      return r < 0 ? -1 : hl_fail(h, "DebugLink %s: no Ready packet from the server within %d ms", x->addr, h->timeout_ms);
  }
  /* As Tinsel's HostLink (tinsel.md §11): QueryIn on every link of every
     box (its workers and one more, the bridge: a POETS box has six workers
     on links 0-5 and the bridge on 6) with the box's offset in the board
     mesh ({Y, X}, 4 bits each) and the config byte; then EnIdle to the
     first box's bridge, which turns on idle detection. */
  for (int bi = 0; bi < h->nboxes; bi++) {
    hl_box *x = &h->boxes[bi];
    if (x->off_x > 15 || x->off_y > 15)
      return hl_fail(h, "DebugLink %s: board offset (%d, %d): QueryIn carries at most 15 each", x->addr, x->off_x, x->off_y);
    for (int link = 0; link < x->links; link++)
      if (put(h, bi, link, CMD_QUERY, (unsigned char)(x->off_y << 4 | x->off_x), (unsigned char)x->config)) return -1;
  }
  for (int bi = 0; bi < h->nboxes; bi++)
    if (box_answers(h, bi)) return -1;
  for (int b = 0; b < h->nboards; b++)
    if (h->board_link[b] < 0) return hl_fail(h, "DebugLink: no link answered as board (%d, %d)", b % h->boards_x, b / h->boards_x);
  int bridge = h->boxes[0].bridge;
  if (bridge < 0) return 0;
  if (put(h, 0, bridge, CMD_EN_IDLE, (unsigned char)(h->boards_y << 4 | h->boards_x), 0)) return -1;
  for (;;) {
    int r = hl_debug_read(h, 0, NULL, pkt, h->timeout_ms);
    if (r < 0) return -1;
    if (r == 0)
      return hl_fail(h, "DebugLink %s: the bridge board (link %d) did not answer EnIdle within %d ms", h->boxes[0].addr,
                     bridge, h->timeout_ms);
    if (pkt[1] == CMD_STDIO) { hl_debug_take(h, 0, pkt, stdout); continue; }
    if (pkt[1] == CMD_QUERY && pkt[0] == bridge) return 0;
    return hl_fail(h, "DebugLink %s: unexpected packet %u from link %u after EnIdle", h->boxes[0].addr, pkt[1], pkt[0]);
  }
}

static void put_line(hostlink *h, FILE *out, int b, int core, int thread, const hl_line *l) {
  if (out) fprintf(out, "%d:%d:%d:%d: %.*s\n", b % h->boards_x, b / h->boards_x, core, thread, (int)l->len,
                   l->text ? l->text : "");
}

long hl_debug_take(hostlink *h, int box, const unsigned char pkt[HL_DEBUG_PKT], FILE *out) {
  if (pkt[1] != CMD_STDIO) return 0;
  if (box < 0 || box >= h->nboxes || pkt[0] >= HL_MAX_LINKS || h->boxes[box].link_board[pkt[0]] < 0 ||
      pkt[3] >= h->cores_per_board || pkt[2] >= TinselThreadsPerCore) {
    h->stdout_lost++;   /* from no thread of ours: reported by hl_close */
    return 0;
  }
  int b = h->boxes[box].link_board[pkt[0]], thread = pkt[2], core = pkt[3];
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
    if (put(h, h->board_box[b], h->board_link[b], CMD_TEMP, 0, 0)) return -1;
  int answers = 0, from = 0;
  unsigned char pkt[HL_DEBUG_PKT];
  while (answers < h->nboards) {
    int r = hl_debug_read(h, -1, &from, pkt, h->timeout_ms);
    if (r < 0) return -1;
    if (r == 0)
      return hl_fail(h, "DebugLink: %d of %d boards answered TempIn within %d ms", answers, h->nboards, h->timeout_ms);
    if (pkt[1] == CMD_TEMP) answers++;
    else hl_debug_take(h, from, pkt, out);
  }
  if (out) fflush(out);
  return 0;
}

long hl_poll_stdout(hostlink *h, FILE *out) {
  if (h->dfd < 0) return hl_fail(h, "hl_poll_stdout: no DebugLink is open");
  long seen = 0;
  unsigned char pkt[HL_DEBUG_PKT];
  int r, from = 0;
  while ((r = hl_debug_read(h, -1, &from, pkt, 0)) > 0) seen += hl_debug_take(h, from, pkt, out);
  if (r < 0) return -1;
  if (seen) fflush(out);
  return seen;
}

int hl_put_stdin(hostlink *h, int x, int y, int core, int thread, uint8_t byte) {
  if (h->dfd < 0) return hl_fail(h, "hl_put_stdin: no DebugLink is open");
  if (hl_check_core(h, x, y, core < 0 ? 0 : core)) return -1;
  if (thread < 0 || thread >= TinselThreadsPerCore)
    return hl_fail(h, "hl_put_stdin: thread %d: a core has threads 0..%d", thread, TinselThreadsPerCore - 1);
  int b = y * h->boards_x + x, box = h->board_box[b], link = h->board_link[b];
  if (put(h, box, link, CMD_SET_DEST, (unsigned char)thread, core < 0 ? BROADCAST : (unsigned char)core)) return -1;
  return put(h, box, link, CMD_STDIO, byte, 0);
}
