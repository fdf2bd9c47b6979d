// tests/compat/sockname.c: the host-link socket names as Tinsel's own
// software uses them (tinsel.md §11). A stand-in pciestreamd binds an
// abstract name the way the real daemon does (the name NUL-padded to the
// whole of sun_path, length sizeof(struct sockaddr_un)), written here
// without our address code, and libhostlink must reach it with
// "unix:@NAME"; then tsim's listener (tsim_listen) on "unix:@NAME2" must
// take a client that connects as Tinsel's HostLink does (padded), and
// refuse one that connects with the exact-length name (another address).
#define _GNU_SOURCE
#include "hostlink.h"
#include "tinsel_config.h"
#include "tsim_socket.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
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
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
