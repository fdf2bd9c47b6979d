/* hl_link.c: connecting, thread addresses, and messages both ways on the
 * host link (hostlink.h; wire format in tinsel.md §4.2). */
#define _GNU_SOURCE
#include "hl_internal.h"
#include "hl_sockaddr.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { HDR_BYTES = 16 };

int hl_fail(hostlink *h, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(h->err, sizeof h->err, fmt, ap);
  va_end(ap);
  return -1;
}

const char *hl_error(const hostlink *h) { return h ? h->err : "no host link"; }

long long hl_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------ connecting */

/* One attempt: the fd, or -1 with errno set. */
static int connect_once(const char *spec, char *why, size_t whylen) {
  if (hl_is_unix_addr(spec)) {
    struct sockaddr_un sa;
    socklen_t len;
    if (hl_unix_addr(spec, &sa, &len, why, whylen)) { errno = EINVAL; return -2; }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, len) == 0) return fd;
    int e = errno;
    if (fd >= 0) close(fd);
    errno = e;
    snprintf(why, whylen, "%s: cannot connect: %s", spec, strerror(e));
    return -1;
  }
  /* HOST:PORT (TCP: boardctrld's DebugLink). */
  char host[256];
  const char *colon = strrchr(spec, ':');
  if (!colon || colon == spec || !colon[1] || (size_t)(colon - spec) >= sizeof host) {
    snprintf(why, whylen, "%s: not an address (want unix:PATH, unix:@NAME or HOST:PORT)", spec);
    errno = EINVAL;
    return -2;
  }
  memcpy(host, spec, (size_t)(colon - spec));
  host[colon - spec] = 0;
  struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res = NULL;
  int g = getaddrinfo(host, colon + 1, &hints, &res);
  if (g) {
    snprintf(why, whylen, "%s: %s", spec, gai_strerror(g));
    return -2;
  }
  int fd = -1, e = 0;
  for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen)) {
      e = errno;
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(res);
  if (fd < 0) snprintf(why, whylen, "%s: cannot connect: %s", spec, strerror(e ? e : ECONNREFUSED));
  return fd;
}

/* Retries while the server may still be starting; -1 with h->err set. */
static int connect_retry(hostlink *h, const char *spec, const char *what) {
  char why[400] = "";
  /* HOSTLINK_CONNECT_ATTEMPTS overrides the number of attempts (tests). */
  const char *env = getenv("HOSTLINK_CONNECT_ATTEMPTS");
  int attempts = env && atoi(env) > 0 ? atoi(env) : HL_CONNECT_ATTEMPTS;
  for (int attempt = 1;; attempt++) {
    int fd = connect_once(spec, why, sizeof why);
    if (fd >= 0) return fd;
    if (fd == -2) return hl_fail(h, "%s: %s", what, why);
    if (attempt >= attempts)
      return hl_fail(h, "%s: %s (%d attempts in %.1f s; is the server, e.g. tsim --hostlink, running there?)", what, why,
                     attempts, attempts * HL_CONNECT_PAUSE_MS / 1000.0);
    struct timespec pause = { 0, HL_CONNECT_PAUSE_MS * 1000000L };
    nanosleep(&pause, NULL);
  }
}

/* The geometry's limits: 0, or -1 with the reason in h->err. */
static int check_geometry(hostlink *h, const hl_geometry *g) {
  if (!g) return hl_fail(h, "hostlink: no geometry");
  if (g->mesh_x_bits < 0 || g->mesh_y_bits < 0 || g->mesh_x_bits + g->mesh_y_bits > 12 ||
      g->mesh_x_bits_within_box < 0 || g->mesh_x_bits_within_box > g->mesh_x_bits)
    return hl_fail(h, "hostlink: board fields of %d + %d bits (%d within a box): want MeshXBits + MeshYBits <= 12 and "
                   "MeshXBitsWithinBox <= MeshXBits", g->mesh_x_bits, g->mesh_y_bits, g->mesh_x_bits_within_box);
  int max_x = 1 << g->mesh_x_bits, max_y = 1 << g->mesh_y_bits;
  if (g->boards_x < 1 || g->boards_y < 1 || g->boards_x > max_x || g->boards_y > max_y)
    return hl_fail(h, "hostlink: a %d x %d board mesh: each side must be 1..%d x 1..%d (MeshXBits, MeshYBits)",
                   g->boards_x, g->boards_y, max_x, max_y);
  if (g->log_cores_per_board < 0 || g->log_cores_per_board > 8 || g->log_cores_per_dram < 0 ||
      g->log_cores_per_dram > g->log_cores_per_board)
    return hl_fail(h, "hostlink: LogCoresPerBoard %d, LogCoresPerDRAM %d: want 0 <= LogCoresPerDRAM <= "
                   "LogCoresPerBoard <= 8", g->log_cores_per_board, g->log_cores_per_dram);
  uint32_t max_threads = 1u << (g->mesh_x_bits + g->mesh_y_bits + g->log_cores_per_board + TinselLogThreadsPerCore);
  if (g->routing_key_bit < max_threads || (g->routing_key_bit & (g->routing_key_bit - 1)))
    return hl_fail(h, "hostlink: RoutingKeyBit 0x%x: want a power of two above the thread addresses (below 0x%x)",
                   g->routing_key_bit, max_threads);
  h->g = *g;
  h->boards_x = g->boards_x;
  h->boards_y = g->boards_y;
  h->nboards = g->boards_x * g->boards_y;
  h->cores_per_board = 1 << g->log_cores_per_board;
  h->threads_per_board = h->cores_per_board * TinselThreadsPerCore;
  h->max_threads = max_threads;
  return 0;
}

int hl_connect(hostlink *h, const char *addr, const char *what) { return connect_retry(h, addr, what); }

hostlink *hl_open_boxes(const char *host, const hl_geometry *geometry, const hl_box *boxes, int nboxes, char *err,
                        size_t errlen) {
  hostlink *h = calloc(1, sizeof *h);
  if (!h) {
    snprintf(err, errlen, "hostlink: out of memory");
    return NULL;
  }
  h->fd = h->dfd = -1;
  h->timeout_ms = HL_DEFAULT_TIMEOUT_MS;
  h->instr_bytes = TinselInstrBytesPerCore;
  if (check_geometry(h, geometry)) goto fail;
  if (nboxes < 0 || nboxes > HL_MAX_BOXES) {
    hl_fail(h, "hostlink: %d boxes; at most %d", nboxes, HL_MAX_BOXES);
    goto fail;
  }
  h->started = calloc((size_t)h->nboards * h->cores_per_board, 1);
  h->stored = calloc((size_t)h->nboards * h->cores_per_board, 1);
  h->lines = calloc((size_t)h->nboards * h->threads_per_board, sizeof *h->lines);
  h->boxes = calloc(nboxes ? (size_t)nboxes : 1, sizeof *h->boxes);
  if (!h->started || !h->stored || !h->lines || !h->boxes) {
    hl_fail(h, "hostlink: out of memory");
    goto fail;
  }
  if (!host) {
    hl_fail(h, "hostlink: no host-link address");
    goto fail;
  }
  h->fd = connect_retry(h, host, "host link");
  if (h->fd < 0) goto fail;
  for (int i = 0; i < nboxes; i++) {
    h->boxes[i] = boxes[i];
    h->boxes[i].fd = -1;
    h->boxes[i].part_len = 0;
  }
  for (int i = 0; i < nboxes; i++) {
    h->nboxes = i + 1;
    h->boxes[i].fd = connect_retry(h, h->boxes[i].addr, "DebugLink");
    if (h->boxes[i].fd < 0) goto fail;
  }
  if (nboxes) {
    h->dfd = h->boxes[0].fd;
    if (hl_debug_open(h)) goto fail;
  }
  return h;
fail:
  snprintf(err, errlen, "%s", h->err);
  hl_close(h);
  return NULL;
}

hostlink *hl_open_opts(const char *host, const char *debug, const hl_geometry *geometry, const hl_options *opts,
                       char *err, size_t errlen) {
  hl_box box = { .fd = -1, .bridge = -1 };
  if (debug) {
    if (strlen(debug) >= sizeof box.addr) {
      snprintf(err, errlen, "DebugLink: %s: the address is %zu bytes; at most %zu", debug, strlen(debug),
               sizeof box.addr - 1);
      return NULL;
    }
    snprintf(box.addr, sizeof box.addr, "%s", debug);
    /* The whole mesh is one box: its boards on links 0..n-1, the bridge
       (if any) on link n. */
    box.within_x = geometry ? geometry->boards_x : 1;
    box.within_y = geometry ? geometry->boards_y : 1;
    int n = box.within_x * box.within_y;
    box.links = n < HL_MAX_LINKS ? n + 1 : HL_MAX_LINKS;
    box.config = opts ? opts->query_config & 0xff : 0;
  }
  return hl_open_boxes(host, geometry, &box, debug ? 1 : 0, err, errlen);
}

hostlink *hl_open(const char *host, const char *debug, const hl_geometry *geometry, char *err, size_t errlen) {
  return hl_open_opts(host, debug, geometry, NULL, err, errlen);
}

int hl_boxes(const hostlink *h) { return h ? h->nboxes : 0; }
const char *hl_box_addr(const hostlink *h, int i) { return h && i >= 0 && i < h->nboxes ? h->boxes[i].addr : ""; }

void hl_close(hostlink *h) {
  if (!h) return;
  if (h->dfd >= 0) hl_debug_close(h);
  if (h->fd >= 0) close(h->fd);
  for (int i = 0; i < h->nboxes; i++)
    if (h->boxes[i].fd >= 0) close(h->boxes[i].fd);
  free(h->boxes);
  if (h->lines)
    for (size_t i = 0; i < (size_t)h->nboards * h->threads_per_board; i++) free(h->lines[i].text);
  free(h->lines);
  free(h->started);
  free(h->stored);
  free(h->queue);
  free(h);
}

int hl_set_timeout(hostlink *h, int timeout_ms) {
  if (timeout_ms < 1) return hl_fail(h, "hl_set_timeout: %d ms: want at least 1", timeout_ms);
  h->timeout_ms = timeout_ms;
  return 0;
}

int hl_set_instr_bytes(hostlink *h, uint32_t bytes) {
  uint32_t enlarged = 4u << TinselEnlargedLogInstrsPerCore;
  if (bytes < TinselInstrBytesPerCore || bytes > enlarged || (bytes & (bytes - 1)))
    return hl_fail(h, "hl_set_instr_bytes: %u bytes: want a power of two from %u (real Tinsel) "
                   "to %u (EnlargedLogInstrsPerCore)",
                   bytes, (unsigned)TinselInstrBytesPerCore, enlarged);
  h->instr_bytes = bytes;
  return 0;
}

/* ------------------------------------------------------------ addresses */

const hl_geometry *hl_geometry_of(const hostlink *h) { return &h->g; }

uint32_t hl_to_addr(const hostlink *h, int board_x, int board_y, int core, int thread) {
  uint32_t a = (uint32_t)board_y << h->g.mesh_x_bits | (uint32_t)board_x;
  a = a << h->g.log_cores_per_board | (uint32_t)core;
  return a << TinselLogThreadsPerCore | (uint32_t)thread;
}

void hl_from_addr(const hostlink *h, uint32_t addr, int *board_x, int *board_y, int *core, int *thread) {
  *thread = (int)(addr & (TinselThreadsPerCore - 1));
  addr >>= TinselLogThreadsPerCore;
  *core = (int)(addr & (uint32_t)(h->cores_per_board - 1));
  addr >>= h->g.log_cores_per_board;
  *board_x = (int)(addr & ((1u << h->g.mesh_x_bits) - 1));
  *board_y = (int)(addr >> h->g.mesh_x_bits & ((1u << h->g.mesh_y_bits) - 1));
}

/* ------------------------------------------------------------ receiving */

/* Reads what is waiting (without blocking when WAIT_MS is 0) into the
   partial message and the queue. 1 when at least one message arrived,
   0 when none did, -1 on error or when the server closed the link. */
static int pull(hostlink *h, int wait_ms) {
  struct pollfd p = { .fd = h->fd, .events = POLLIN };
  int r;
  do r = poll(&p, 1, wait_ms);
  while (r < 0 && errno == EINTR);
  if (r < 0) return hl_fail(h, "host link: poll: %s", strerror(errno));
  if (r == 0) return 0;
  unsigned char buf[HL_MSG_BYTES * 64];
  ssize_t n;
  do n = recv(h->fd, buf, sizeof buf, MSG_DONTWAIT);
  while (n < 0 && errno == EINTR);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
  if (n < 0) return hl_fail(h, "host link: receive: %s", strerror(errno));
  if (n == 0 && h->part_len)   /* a message cut short: say so, never drop it silently */
    return hl_fail(h, "host link: the server closed the connection in the middle of a message (%zu of its %d bytes received)",
                   h->part_len, HL_MSG_BYTES);
  if (n == 0) return hl_fail(h, "host link: the server closed the connection");
  int got = 0;
  for (ssize_t i = 0; i < n;) {
    size_t k = HL_MSG_BYTES - h->part_len;
    if ((size_t)(n - i) < k) k = (size_t)(n - i);
    memcpy(h->part + h->part_len, buf + i, k);
    h->part_len += k;
    i += (ssize_t)k;
    if (h->part_len < HL_MSG_BYTES) break;
    if (h->q_count == h->q_cap) {
      size_t cap = h->q_cap ? 2 * h->q_cap : 64;
      unsigned char *q = malloc(cap * HL_MSG_BYTES);
      if (!q) return hl_fail(h, "host link: out of memory queueing %zu messages", cap);
      for (size_t m = 0; m < h->q_count; m++)
        memcpy(q + m * HL_MSG_BYTES, h->queue + ((h->q_head + m) % h->q_cap) * HL_MSG_BYTES, HL_MSG_BYTES);
      free(h->queue);
      h->queue = q;
      h->q_cap = cap;
      h->q_head = 0;
    }
    memcpy(h->queue + ((h->q_head + h->q_count) % h->q_cap) * HL_MSG_BYTES, h->part, HL_MSG_BYTES);
    h->q_count++;
    h->part_len = 0;
    got = 1;
  }
  return got;
}

int hl_can_recv(hostlink *h) {
  if (h->q_count) return 1;
  if (pull(h, 0) < 0) return -1;
  return h->q_count > 0;
}

int hl_recv(hostlink *h, void *msg, int timeout_ms) {
  long long deadline = timeout_ms < 0 ? 0 : hl_now_ms() + timeout_ms;
  while (!h->q_count) {
    int wait = -1;
    if (timeout_ms >= 0) {
      long long left = deadline - hl_now_ms();
      if (left <= 0) return 0;
      wait = (int)left;
    }
    if (pull(h, wait) < 0) return -1;
  }
  memcpy(msg, h->queue + h->q_head * HL_MSG_BYTES, HL_MSG_BYTES);
  h->q_head = (h->q_head + 1) % h->q_cap;
  h->q_count--;
  return 1;
}

/* ------------------------------------------------------------ sending */

int hl_write_all(hostlink *h, int fd, const void *buf, size_t len, const char *what) {
  const unsigned char *b = buf;
  while (len) {
    ssize_t n = send(fd, b, len, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      b += n;
      len -= (size_t)n;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
      return hl_fail(h, "%s: send: %s", what, errno == EPIPE ? "the server closed the connection" : strerror(errno));
    /* Full: wait for room, taking in what the boards send meanwhile. */
    struct pollfd p[2] = { { .fd = fd, .events = POLLOUT }, { .fd = h->fd, .events = POLLIN } };
    int np = fd == h->fd ? 1 : 2;
    p[0].events |= fd == h->fd ? POLLIN : 0;
    if (poll(p, (nfds_t)np, -1) < 0 && errno != EINTR) return hl_fail(h, "%s: poll: %s", what, strerror(errno));
    if ((p[np - 1].revents & POLLIN) && pull(h, 0) < 0) return -1;
  }
  return 0;
}

static int send_msg(hostlink *h, uint32_t dest, uint32_t key, int flits, const void *msg, const char *what) {
  if (flits < 1 || flits > TinselMaxFlitsPerMsg)
    return hl_fail(h, "%s: %d flits: a message has 1..%d", what, flits, TinselMaxFlitsPerMsg);
  unsigned char buf[HDR_BYTES + HL_MSG_BYTES];
  uint32_t hdr[4] = { dest, 0, (uint32_t)(flits - 1) << 24, key };
  for (int i = 0; i < 4; i++)
    for (int b = 0; b < 4; b++) buf[4 * i + b] = (unsigned char)(hdr[i] >> (8 * b));
  memcpy(buf + HDR_BYTES, msg, (size_t)flits * TinselBytesPerFlit);
  return hl_write_all(h, h->fd, buf, HDR_BYTES + (size_t)flits * TinselBytesPerFlit, "host link");
}

int hl_send(hostlink *h, uint32_t dest, int flits, const void *msg) {
  if (dest >= h->max_threads)
    return hl_fail(h, "hl_send: destination 0x%x is not a thread address (below 0x%x)", dest, h->max_threads);
  int x, y, c, t;
  hl_from_addr(h, dest, &x, &y, &c, &t);
  if (x >= h->boards_x || y >= h->boards_y)
    return hl_fail(h, "hl_send: destination 0x%x is on board (%d, %d), outside the %d x %d mesh", dest, x, y, h->boards_x,
                   h->boards_y);
  return send_msg(h, dest, 0, flits, msg, "hl_send");
}

int hl_key_send(hostlink *h, uint32_t key, int flits, const void *msg) {
  if ((key & 31) == 0)   /* tsim refuses such a send too (sim/tsim_hlframe.c) */
    return hl_fail(h, "hl_key_send: key 0x%x has no beats (a key's low 5 bits count its beats; 0 names no record)", key);
  return send_msg(h, h->g.routing_key_bit, key, flits, msg, "hl_key_send");
}
