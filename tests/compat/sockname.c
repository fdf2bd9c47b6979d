// tests/compat/sockname.c: the host-link socket names as Tinsel's own
// software uses them (tinsel.md §11). A stand-in pciestreamd binds an
// abstract name the way the real daemon does (the name NUL-padded to the
// whole of sun_path, length sizeof(struct sockaddr_un)), written here
// without our address code, and libhostlink must reach it with
// "unix:@NAME"; then tsim's listener (tsim_listen) on "unix:@NAME2" must
// take a client that connects as Tinsel's HostLink does (padded), and
// refuse one that connects with the exact-length name (another address).
// 3. A cluster as Tinsel's HostLink reaches it (hl_open_cluster): a
// stand-in pciestreamd and stand-in boardctrlds, one per box, on loopback
// TCP ports (HOSTLINK_BOX_ADDRS-style map from box names to 127.0.0.1:PORT,
// this machine named "Byron.example" as a box would be): libhostlink
// connects to every box, completes the DebugLink handshake (QueryIn on
// links 0-6 of each box with its board offset and sandbox config, EnIdle
// to the first box's bridge) and talks to boards of every box; a machine
// that is no box is refused by name.
#define _GNU_SOURCE
#include "hostlink.h"
#include "tinsel_config.h"
#include "tsim_socket.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static int passed, failed;

static void check(int ok, const char *what, const char *detail) {
  printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", what, ok ? "" : ": ", ok ? "" : detail);
  ok ? passed++ : failed++;
}

// An abstract address as Tinsel writes it: padded, or exact when EXACT.
static socklen_t tinsel_addr(struct sockaddr_un *sa, const char *name, int exact) {
  memset(sa, 0, sizeof *sa);
  sa->sun_family = AF_UNIX;
  memcpy(sa->sun_path + 1, name, strlen(name));
  return exact ? (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name)) : (socklen_t)sizeof *sa;
}

// ---- stand-in boardctrld (one box): the protocol as tsim's --debuglink
// serves it, written small: Ready, QueryOut for links 0..W-1 (1 + board
// id {y, x}) and W (the bridge, 0), EnIdle on the bridge, TempOut, SetDest
// and StdIn counted. At the end one line to REPORT:
// "box B offset 0xOO config 0xCC queried N enidle 0xEE temp T stdin S".
enum { BOX_W = 3, BOX_H = 2, BOX_LINKS = BOX_W * BOX_H + 1, XBITS = TinselMeshXBitsWithinBox };

static int read_full(int fd, unsigned char *p, size_t n) {
  size_t got = 0;
  while (got < n) {
    struct pollfd q = { .fd = fd, .events = POLLIN };
    if (poll(&q, 1, 30000) <= 0) return -1;  // never hang
    ssize_t r = read(fd, p + got, n - got);
    if (r <= 0) return -1;
    got += (size_t)r;
  }
  return 0;
}

static void boardctrld(int lfd, int box, int report) {
  struct pollfd q = { .fd = lfd, .events = POLLIN };
  if (poll(&q, 1, 30000) <= 0) _exit(3);
  int c = accept(lfd, NULL, NULL);
  if (c < 0) _exit(3);
  unsigned char pkt[5] = { 0, 255, 0, 0, 0 };
  unsigned offset = 0xff, config = 0xff, queried = 0, enidle = 0, temp = 0, stdin_bytes = 0;
  if (write(c, pkt, 5) != 5) _exit(3);
  while (read_full(c, pkt, 5) == 0) {
    unsigned link = pkt[0], reply = link < BOX_LINKS - 1 ? 1 + ((link / BOX_W) << XBITS | link % BOX_W) : 0;
    unsigned char out[5] = { (unsigned char)link, 0, 0, 0, 0 };
    if (pkt[1] == 0) {
      offset = pkt[2], config = pkt[3], queried++;
      out[2] = (unsigned char)reply;
    } else if (pkt[1] == 3) {
      enidle = 0x100 | pkt[2];
    } else if (pkt[1] == 4) {
      out[1] = 4, out[2] = 168, temp++;
    } else {
      stdin_bytes += pkt[1] == 2;
      continue;
    }
    if (write(c, out, 5) != 5) break;
  }
  char line[160];
  int n = snprintf(line, sizeof line, "box %d offset 0x%02x config 0x%02x queried %u enidle 0x%03x temp %u stdin %u\n",
                   box, offset, config, queried, enidle, temp, stdin_bytes);
  if (write(report, line, (size_t)n) != n) _exit(4);
  _exit(0);
}

static void cluster(void) {
  enum { NBOX = 4 };
  char err[512], map[400] = "", name[64], spec[96], got[1024] = "";
  int lfd[NBOX], pfd[2];
  pid_t pid[NBOX];
  static const char *const names[NBOX] = { "byron", "coleridge", "defoe", "eliot" };  // boards/cluster.cfg, 2 x 2 from byron
  if (pipe(pfd)) { perror("pipe"); exit(2); }
  for (int b = 0; b < NBOX; b++) {
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t al = sizeof a;
    lfd[b] = socket(AF_INET, SOCK_STREAM, 0);
    if (lfd[b] < 0 || bind(lfd[b], (struct sockaddr *)&a, sizeof a) || listen(lfd[b], 1) ||
        getsockname(lfd[b], (struct sockaddr *)&a, &al)) { perror("stand-in boardctrld"); exit(2); }
    size_t n = strlen(map);
    snprintf(map + n, sizeof map - n, "%s%s=127.0.0.1:%u", b ? "," : "", names[b], (unsigned)ntohs(a.sin_port));
  }
  fflush(stdout);
  for (int b = 0; b < NBOX; b++)
    if ((pid[b] = fork()) == 0) {
      close(pfd[0]);
      boardctrld(lfd[b], b, pfd[1]);
    }
  close(pfd[1]);
  for (int b = 0; b < NBOX; b++) close(lfd[b]);
  // The stand-in pciestreamd: padded abstract name, as the real one binds.
  struct sockaddr_un sa;
  snprintf(name, sizeof name, "pciestream-cluster-%d", (int)getpid());
  int srv = socket(AF_UNIX, SOCK_STREAM, 0);
  socklen_t len = tinsel_addr(&sa, name, 0);
  if (srv < 0 || bind(srv, (struct sockaddr *)&sa, len) || listen(srv, 1)) { perror("stand-in pciestreamd"); exit(2); }
  snprintf(spec, sizeof spec, "unix:@%s", name);
  // A machine that is no box is refused, by name.
  hl_cluster cl = { .config = "cluster", .boxes_x = 2, .boxes_y = 2, .hostname = "nowhere", .box_addrs = map,
                    .host = spec };
  hostlink *h = hl_open_cluster(&cl, err, sizeof err);
  check(!h && strstr(err, "\"nowhere\", is none of") && strstr(err, "byron coleridge"),
        "hl_open_cluster refuses a machine that is none of the BoxHosts, naming them", h ? "it connected" : err);
  hl_close(h);
  cl.hostname = "Byron.example";
  cl.extra_send_slot = 1;
  h = hl_open_cluster(&cl, err, sizeof err);
  char detail[700];
  snprintf(detail, sizeof detail, "%s", h ? "" : err);
  check(h != NULL, "hl_open_cluster connects to pciestreamd and the boardctrlds of 2 x 2 boxes (TCP, by box name)",
        detail);
  if (h) {
    const hl_geometry *g = hl_geometry_of(h);
    snprintf(detail, sizeof detail, "%d x %d boards, %d DebugLinks", g->boards_x, g->boards_y, hl_boxes(h));
    check(g->boards_x == 2 * BOX_W && g->boards_y == 2 * BOX_H && hl_boxes(h) == NBOX,
          "the cluster is 6 x 4 boards on 4 DebugLinks", detail);
    int ok = hl_sync_stdout(h, stdout) == 0;               // TempIn to every board of every box
    ok = ok && hl_put_stdin(h, 5, 3, -1, 0, 'x') == 0;     // board (5, 3): the last box
    check(ok, "TempIn to all 24 boards answered; StdIn to board (5, 3)", hl_error(h));
    hl_close(h);
  }
  close(srv);
  for (int b = 0; b < NBOX; b++) {
    int st;
    if (waitpid(pid[b], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
      // a stand-in that got no client (the connection failed): stop it
      kill(pid[b], SIGKILL);
      waitpid(pid[b], &st, 0);
    }
  }
  ssize_t n = read(pfd[0], got, sizeof got - 1);
  got[n > 0 ? n : 0] = 0;
  close(pfd[0]);
  // Box (x, y) of the 2 x 2: offset {3y... } = (y * 2) << 4 | x * 3; config:
  // south on the bottom row (0x02), north on the top (0x01), 0x10 the
  // extra send slot; EnIdle {3, 4 << 4 | 6} only to box 0's bridge.
  static const char *const want[NBOX] = {
    "box 0 offset 0x00 config 0x12 queried 7 enidle 0x146 temp 6 stdin 0",
    "box 1 offset 0x03 config 0x12 queried 7 enidle 0x000 temp 6 stdin 0",
    "box 2 offset 0x20 config 0x11 queried 7 enidle 0x000 temp 6 stdin 0",
    "box 3 offset 0x23 config 0x11 queried 7 enidle 0x000 temp 6 stdin 1",
  };
  for (int b = 0; b < NBOX; b++) {
    char what[160];
    snprintf(what, sizeof what, "stand-in boardctrld %s: %s", names[b], want[b]);
    snprintf(detail, sizeof detail, "got:\n%s", got);
    check(strstr(got, want[b]) != NULL, what, detail);
  }
}

int main(void) {
  char name[64], spec[80], err[512];
  struct sockaddr_un sa;
  // 1. A stand-in pciestreamd, bound as the real one binds.
  snprintf(name, sizeof name, "pciestream-test-%d", (int)getpid());
  int srv = socket(AF_UNIX, SOCK_STREAM, 0);
  socklen_t len = tinsel_addr(&sa, name, 0);
  if (srv < 0 || bind(srv, (struct sockaddr *)&sa, len) || listen(srv, 1)) { perror("stand-in pciestreamd"); return 2; }
  hl_geometry g = { 1, 1, TinselMeshXBits, TinselMeshYBits, TinselMeshXBitsWithinBox,
                    TinselLogCoresPerBoard, TinselLogCoresPerDRAM, TinselRoutingKeyBit };
  snprintf(spec, sizeof spec, "unix:@%s", name);
  setenv("HOSTLINK_CONNECT_ATTEMPTS", "1", 1);
  hostlink *h = hl_open(spec, NULL, &g, err, sizeof err);
  check(h != NULL, "libhostlink reaches a pciestreamd bound with the padded name", err);
  hl_close(h);
  close(srv);
  // 2. tsim's listener, and clients connecting as HostLink does and not.
  snprintf(name, sizeof name, "tinsel-sim-test-%d", (int)getpid());
  snprintf(spec, sizeof spec, "unix:@%s", name);
  int lfd = tsim_listen(spec, err, sizeof err);
  if (lfd < 0) { fprintf(stderr, "tsim_listen: %s\n", err); return 2; }
  int c = socket(AF_UNIX, SOCK_STREAM, 0);
  len = tinsel_addr(&sa, name, 0);
  int rc = connect(c, (struct sockaddr *)&sa, len);
  snprintf(err, sizeof err, "%s", strerror(errno));
  check(rc == 0, "tsim takes a client connecting with the padded name, as HostLink", err);
  close(c);
  c = socket(AF_UNIX, SOCK_STREAM, 0);
  len = tinsel_addr(&sa, name, 1);
  rc = connect(c, (struct sockaddr *)&sa, len);
  int e = errno;
  snprintf(err, sizeof err, "connect returned %d (%s)", rc, strerror(e));
  check(rc < 0 && e == ECONNREFUSED, "the exact-length name is another address (ECONNREFUSED)", err);
  close(c);
  tsim_unlisten(spec, lfd);
  cluster();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
