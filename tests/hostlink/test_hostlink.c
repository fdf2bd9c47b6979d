// tests/hostlink/test_hostlink.c: libhostlink against an in-process fake
// server: the wire format of host -> board messages (header, 1-4 flits,
// keys), board -> host messages padded to 64 bytes (partial reads, queue,
// timeouts), the boot commands' packing and replies (Load, Start acks,
// reply timeouts), the DebugLink handshake, StdOut lines and StdIn, and the
// error paths: no server, bad addresses, bad sizes, the server closing.
#define _GNU_SOURCE
#include "hl_sockaddr.h"
#include "hostlink.h"
#include "tinsel_config.h"
#include "unit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static char host_addr[64], debug_addr[64];
// One board of the configuration this test is compiled against.
static const hl_geometry board1 = { 1, 1, TinselMeshXBits, TinselMeshYBits, TinselMeshXBitsWithinBox,
                                    TinselLogCoresPerBoard, TinselLogCoresPerDRAM, TinselRoutingKeyBit };

static int listen_on(const char *spec) {
  struct sockaddr_un sa;
  socklen_t len;
  char err[200];
  if (hl_unix_addr(spec, &sa, &len, err, sizeof err)) { fprintf(stderr, "%s\n", err); exit(2); }
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0 || bind(fd, (struct sockaddr *)&sa, len) || listen(fd, 4)) { perror(spec); exit(2); }
  return fd;
}

static void read_exact(int fd, void *buf, size_t n) {
  unsigned char *b = buf;
  while (n) {
    ssize_t r = read(fd, b, n);
    if (r <= 0) { fprintf(stderr, "fake server: short read\n"); exit(2); }
    b += r;
    n -= (size_t)r;
  }
}

static void write_all(int fd, const void *buf, size_t n) {
  if (write(fd, buf, n) != (ssize_t)n) { perror("fake server: write"); exit(2); }
}

static uint32_t word(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

// One host -> board message off the wire: header words and up to 16 payload words.
static void read_msg(int fd, uint32_t hdr[4], uint32_t payload[16]) {
  unsigned char b[16 + 64];
  read_exact(fd, b, 16);
  for (int i = 0; i < 4; i++) hdr[i] = word(b + 4 * i);
  unsigned flits = (hdr[2] >> 24) + 1;
  if (flits > 4) { fprintf(stderr, "fake server: %u flits\n", flits); exit(2); }
  read_exact(fd, b + 16, 16 * flits);
  memset(payload, 0, 64);
  for (unsigned i = 0; i < 4 * flits; i++) payload[i] = word(b + 16 + 4 * i);
}

static void reply(int fd, uint32_t w0, uint32_t w1) {
  uint32_t m[16] = { w0, w1 };
  write_all(fd, m, sizeof m);
}

static void test_errors(void) {
  char err[512];
  setenv("HOSTLINK_CONNECT_ATTEMPTS", "2", 1);
  hostlink *h = hl_open("unix:@hostlink-test-nobody-listens", NULL, &board1, err, sizeof err);
  CHECK(!h && strstr(err, "cannot connect") && strstr(err, "2 attempts"), "no server: %s", err);
  unsetenv("HOSTLINK_CONNECT_ATTEMPTS");
  h = hl_open("bogus", NULL, &board1, err, sizeof err);
  CHECK(!h && strstr(err, "not an address"), "bad address: %s", err);
  h = hl_open("unix:", NULL, &board1, err, sizeof err);
  CHECK(!h && strstr(err, "empty socket name"), "empty name: %s", err);
  char longname[200] = "unix:/tmp/";
  memset(longname + 10, 'x', 150);
  h = hl_open(longname, NULL, &board1, err, sizeof err);
  CHECK(!h && strstr(err, "at most"), "long name: %s", err);
  hl_geometry g = board1;
  g.boards_x = 0;
  h = hl_open(host_addr, NULL, &g, err, sizeof err);
  CHECK(!h && strstr(err, "board mesh"), "bad mesh: %s", err);
  g = board1;
  g.boards_x = 1 << TinselMeshXBits;
  g.boards_x++;
  h = hl_open(host_addr, NULL, &g, err, sizeof err);
  CHECK(!h && strstr(err, "board mesh"), "mesh wider than MeshXBits: %s", err);
  g = board1;
  g.log_cores_per_dram = g.log_cores_per_board + 1;
  h = hl_open(host_addr, NULL, &g, err, sizeof err);
  CHECK(!h && strstr(err, "LogCoresPerDRAM"), "more cores per DRAM than per board: %s", err);
  g = board1;
  g.routing_key_bit = 1;
  h = hl_open(host_addr, NULL, &g, err, sizeof err);
  CHECK(!h && strstr(err, "RoutingKeyBit"), "routing-key bit among the thread bits: %s", err);
  h = hl_open(host_addr, NULL, NULL, err, sizeof err);
  CHECK(!h && strstr(err, "no geometry"), "no geometry: %s", err);
}

// Geometries from boards/ (libboards) at run time: the thread-address
// layout of a tile, a board and a box, and a missing configuration.
static void test_geometry(void) {
  char err[512];
  hl_geometry tile, board, box;
  CHECK(hl_geometry_load("tile", &tile, err, sizeof err) == 0, "tile: %s", err);
  CHECK(hl_geometry_load("board", &board, err, sizeof err) == 0, "board: %s", err);
  CHECK(hl_geometry_load("box", &box, err, sizeof err) == 0, "box: %s", err);
  CHECK(tile.boards_x == 1 && tile.boards_y == 1 && tile.log_cores_per_board + 4 == board.log_cores_per_board &&
        tile.log_cores_per_dram == tile.log_cores_per_board && tile.routing_key_bit < board.routing_key_bit,
        "tile: 1 x 1 boards, %d cores (board: %d), key bit 0x%x", 1 << tile.log_cores_per_board,
        1 << board.log_cores_per_board, tile.routing_key_bit);
  CHECK(!memcmp(&board, &board1, sizeof board), "board from boards/ = the compiled-in board");
  CHECK(box.boards_x * box.boards_y == 6 && box.log_cores_per_board == board.log_cores_per_board,
        "box: %d x %d boards", box.boards_x, box.boards_y);
  CHECK(hl_geometry_load("nosuch", &tile, err, sizeof err) == -1 && strstr(err, "nosuch"), "missing: %s", err);
}

// A tile's and a box's addresses (no connection needed beyond hl_open).
static void test_addresses(int lfd) {
  char err[512];
  hl_geometry tile, box;
  if (hl_geometry_load("tile", &tile, err, sizeof err) || hl_geometry_load("box", &box, err, sizeof err)) return;
  hostlink *h = hl_open(host_addr, NULL, &tile, err, sizeof err);
  CHECK(h != NULL, "hl_open on a tile: %s", err);
  if (!h) return;
  int s = accept(lfd, NULL, NULL), x, y, c, t;
  uint32_t a = hl_to_addr(h, 0, 0, 3, 7), hdr[4], got[16], key_msg[16] = { 1 };
  CHECK(a == (3u << TinselLogThreadsPerCore | 7u), "tile: core 3 thread 7 is 0x%x", a);
  CHECK(hl_send(h, 4u << TinselLogThreadsPerCore, 1, key_msg) == -1 && strstr(hl_error(h), "outside the 1 x 1 mesh"),
        "tile: core 4 is on another board: %s", hl_error(h));
  CHECK(hl_start(h, (int[]){ 4 }, 1, 0) == -1 && strstr(hl_error(h), "4 cores"), "tile: hl_start of core 4: %s",
        hl_error(h));
  CHECK(hl_key_send(h, 0x1234, 1, key_msg) == 0, "tile: key send: %s", hl_error(h));
  read_msg(s, hdr, got);
  CHECK(hdr[0] == tile.routing_key_bit && hdr[3] == 0x1234, "tile: key send to 0x%x (RoutingKeyBit 0x%x)", hdr[0],
        tile.routing_key_bit);
  close(s);
  hl_close(h);
  h = hl_open(host_addr, NULL, &box, err, sizeof err);
  CHECK(h != NULL, "hl_open on a box: %s", err);
  if (!h) return;
  s = accept(lfd, NULL, NULL);
  a = hl_to_addr(h, 2, 1, 63, 15);
  hl_from_addr(h, a, &x, &y, &c, &t);
  CHECK(x == 2 && y == 1 && c == 63 && t == 15 &&
        a == (((1u << box.mesh_x_bits | 2u) << box.log_cores_per_board | 63u) << TinselLogThreadsPerCore | 15u),
        "box: board (2, 1) core 63 thread 15 is 0x%x", a);
  CHECK(hl_send(h, a, 1, key_msg) == 0, "box: send to board (2, 1): %s", hl_error(h));
  read_msg(s, hdr, got);
  CHECK(hdr[0] == a, "box: header names 0x%x", hdr[0]);
  CHECK(hl_send(h, hl_to_addr(h, 3, 0, 0, 0), 1, key_msg) == -1 && strstr(hl_error(h), "outside the 3 x 2 mesh"),
        "box: board (3, 0): %s", hl_error(h));
  close(s);
  hl_close(h);
}

static void test_messages(hostlink *h, int s) {
  unsigned char payload[64];
  for (int i = 0; i < 64; i++) payload[i] = (unsigned char)(i * 7 + 1);
  uint32_t dest = hl_to_addr(h, 0, 0, 5, 3), hdr[4], got[16];
  CHECK(dest == (5u << TinselLogThreadsPerCore | 3u), "hl_to_addr: 0x%x", dest);
  int x, y, c, t;
  hl_from_addr(h, dest, &x, &y, &c, &t);
  CHECK(x == 0 && y == 0 && c == 5 && t == 3, "hl_from_addr: %d %d %d %d", x, y, c, t);
  for (int flits = 1; flits <= 4; flits++) {
    CHECK(hl_send(h, dest, flits, payload) == 0, "hl_send %d flits: %s", flits, hl_error(h));
    read_msg(s, hdr, got);
    CHECK(hdr[0] == dest && hdr[1] == 0 && hdr[2] == (uint32_t)(flits - 1) << 24 && hdr[3] == 0,
          "header of %d flits: %x %x %x %x", flits, hdr[0], hdr[1], hdr[2], hdr[3]);
    CHECK(!memcmp(got, payload, 16 * (size_t)flits), "payload of %d flits", flits);
  }
  CHECK(hl_send(h, dest, 0, payload) == -1 && strstr(hl_error(h), "1..4"), "0 flits: %s", hl_error(h));
  CHECK(hl_send(h, dest, 5, payload) == -1 && strstr(hl_error(h), "1..4"), "5 flits: %s", hl_error(h));
  CHECK(hl_send(h, hl_to_addr(h, 1, 0, 0, 0), 1, payload) == -1 && strstr(hl_error(h), "outside the 1 x 1 mesh"),
        "other board: %s", hl_error(h));
  CHECK(hl_key_send(h, 0xabc05, 2, payload) == 0, "hl_key_send: %s", hl_error(h));
  read_msg(s, hdr, got);
  CHECK(hdr[0] == TinselRoutingKeyBit && hdr[3] == 0xabc05 && hdr[2] == 1u << 24, "key header: %x %x %x", hdr[0], hdr[2],
        hdr[3]);
  CHECK(hl_key_send(h, 0, 1, payload) == -1, "key 0 refused");
  CHECK(hl_key_send(h, 0xabc00, 1, payload) == -1 && strstr(hl_error(h), "key 0xabc00 has no beats"),
        "a key with no beats refused: %s", hl_error(h));

  // Board -> host: 64 bytes each, however the bytes arrive.
  uint32_t a[16], b[16], m[16];
  for (int i = 0; i < 16; i++) { a[i] = 0xa0000000u + (uint32_t)i; b[i] = 0xb0000000u + (uint32_t)i; }
  CHECK(hl_can_recv(h) == 0, "nothing to receive yet");
  write_all(s, a, 40);
  usleep(20000);
  CHECK(hl_can_recv(h) == 0, "40 bytes are not a message");
  write_all(s, (unsigned char *)a + 40, 24);
  write_all(s, b, 64);
  usleep(20000);
  CHECK(hl_can_recv(h) == 1, "a whole message is there");
  CHECK(hl_recv(h, m, 1000) == 1 && !memcmp(m, a, 64), "first message");
  CHECK(hl_recv(h, m, 1000) == 1 && !memcmp(m, b, 64), "second message");
  CHECK(hl_recv(h, m, 50) == 0, "timeout with nothing sent");
}

static void test_boot(hostlink *h, int s) {
  uint32_t words[20], hdr[4], p[16];
  for (int i = 0; i < 20; i++) words[i] = 0x1000u + (uint32_t)i;
  CHECK(hl_write_instrs(h, 0, 0, 2, 0x240, words, 20) == 0, "hl_write_instrs: %s", hl_error(h));
  uint32_t to = hl_to_addr(h, 0, 0, 2, 0);
  read_msg(s, hdr, p);
  CHECK(hdr[0] == to && hdr[2] == 0 && p[0] == (TinselBootSetAddrCmd | 1u << 8) && p[1] == 0x240, "SetAddr %x %x", p[0], p[1]);
  read_msg(s, hdr, p);
  CHECK(hdr[2] == 3u << 24 && p[0] == (TinselBootWriteInstrCmd | 15u << 8) && p[1] == 0x1000 && p[15] == 0x100e,
        "15 words in 4 flits: %x %x %x", hdr[2], p[0], p[15]);
  read_msg(s, hdr, p);
  CHECK(hdr[2] == 1u << 24 && p[0] == (TinselBootWriteInstrCmd | 5u << 8) && p[5] == 0x1013, "5 words in 2 flits: %x %x",
        hdr[2], p[0]);
  CHECK(hl_write_instrs(h, 0, 0, 2, 0x1ffc, words, 2) == -1 && strstr(hl_error(h), "instruction memory"), "imem overflow: %s",
        hl_error(h));
  // The enlarged model's instruction memory: the same write fits, then back.
  CHECK(hl_set_instr_bytes(h, 3000) == -1 && strstr(hl_error(h), "power of two"), "odd imem size: %s", hl_error(h));
  CHECK(hl_set_instr_bytes(h, 4u << TinselEnlargedLogInstrsPerCore) == 0, "enlarged imem: %s", hl_error(h));
  CHECK(hl_write_instrs(h, 0, 0, 2, 0x1ffc, words, 2) == 0, "write past 8 KiB on the enlarged imem: %s", hl_error(h));
  read_msg(s, hdr, p);
  CHECK(p[0] == (TinselBootSetAddrCmd | 1u << 8) && p[1] == 0x1ffc, "SetAddr 0x1ffc: %x %x", p[0], p[1]);
  read_msg(s, hdr, p);
  CHECK(p[0] == (TinselBootWriteInstrCmd | 2u << 8) && p[1] == 0x1000 && p[2] == 0x1001, "2 words: %x", p[0]);
  CHECK(hl_set_instr_bytes(h, TinselInstrBytesPerCore) == 0, "back to real Tinsel: %s", hl_error(h));
  CHECK(hl_store(h, 0, 0, 64, 0x100, words, 1) == -1 && strstr(hl_error(h), "cores 0..63"), "bad core: %s", hl_error(h));

  // Load: replies of 4 words per flit message, already waiting.
  reply(s, 11, 12);
  uint32_t r2[16] = { 15, 16 };
  uint32_t r1[16] = { 11, 12, 13, 14 };
  write_all(s, r1, 64);
  write_all(s, r2, 64);
  uint32_t got[6] = { 0 };
  // The first reply above is a stray message: hl_load takes the next ones in order.
  uint32_t stray[16];
  CHECK(hl_recv(h, stray, 1000) == 1 && stray[0] == 11 && stray[1] == 12, "stray message read");
  CHECK(hl_load(h, 0, 0, 1, 0x1800000, got, 6) == 0, "hl_load: %s", hl_error(h));
  CHECK(got[0] == 11 && got[3] == 14 && got[4] == 15 && got[5] == 16, "loaded %u %u %u %u", got[0], got[3], got[4], got[5]);
  read_msg(s, hdr, p);
  CHECK(p[0] == (TinselBootSetAddrCmd | 1u << 8) && p[1] == 0x1800000, "Load's SetAddr");
  read_msg(s, hdr, p);
  CHECK(p[0] == (TinselBootLoadCmd | 1u << 8) && p[1] == 6, "LoadCmd 6 words: %x %u", p[0], p[1]);
  hl_set_timeout(h, 200);
  CHECK(hl_load(h, 0, 0, 1, 0x1800000, got, 6) == -1 && strstr(hl_error(h), "sent 0 of 6 words"), "load timeout: %s",
        hl_error(h));
  read_msg(s, hdr, p);
  read_msg(s, hdr, p);

  // Start: one StartCmd per core, one ack per core.
  for (int c = 0; c < TinselCoresPerBoard; c++) reply(s, hl_to_addr(h, 0, 0, c, 0), 0);
  CHECK(hl_start(h, NULL, 0, 15) == 0, "hl_start: %s", hl_error(h));
  int ok = 1;
  for (int c = 0; c < TinselCoresPerBoard; c++) {
    read_msg(s, hdr, p);
    ok &= hdr[0] == hl_to_addr(h, 0, 0, c, 0) && p[0] == (TinselBootStartCmd | 1u << 8) && p[1] == 15;
  }
  CHECK(ok, "a StartCmd {15} to thread 0 of each core");
  int two[2] = { 3, 9 };
  reply(s, hl_to_addr(h, 0, 0, 9, 0), 0);
  CHECK(hl_start(h, two, 2, 15) == -1 && strstr(hl_error(h), "1 of 2 cores acknowledged") && strstr(hl_error(h), "core 3"),
        "start timeout: %s", hl_error(h));
  read_msg(s, hdr, p);
  read_msg(s, hdr, p);
  reply(s, hl_to_addr(h, 0, 0, 7, 1), 0);
  int one[1] = { 7 };
  CHECK(hl_start(h, one, 1, 15) == -1 && strstr(hl_error(h), "unexpected message"), "stray ack: %s", hl_error(h));
  read_msg(s, hdr, p);
  CHECK(hl_start(h, one, 1, 16) == -1 && strstr(hl_error(h), "0..15"), "16 threads: %s", hl_error(h));
  int bad[1] = { 64 };
  CHECK(hl_load_elf(h, "/nonexistent.elf", bad, 1) == -1 && strstr(hl_error(h), "core 64"), "bad core list: %s", hl_error(h));
  CHECK(hl_load_elf(h, "/nonexistent.elf", NULL, 0) == -1 && strstr(hl_error(h), "nonexistent"), "no ELF: %s", hl_error(h));
  CHECK(hl_go(h) == -1 && strstr(hl_error(h), "DebugLink"), "go needs a DebugLink: %s", hl_error(h));
}

// The DebugLink's far end, in a child process, as boardctrld with one
// worker (link 0) and the bridge (link 1): Ready, QueryOut for each
// QueryIn, EnIdle to the bridge answered, a StdOut line, then checks
// SetDest + StdIn. Exits 0 when all was as expected.
static int debug_server(int lfd) {
  int d = accept(lfd, NULL, NULL);
  unsigned char p[5], ready[5] = { 0, 255 }, query_out[5] = { 0, 0, 1 }, bridge_out[5] = { 1, 0, 0 };
  write_all(d, ready, 5);
  read_exact(d, p, 5);
  if (p[0] != 0 || p[1] != 0) return 1;
  read_exact(d, p, 5);
  if (p[0] != 1 || p[1] != 0) return 6;   // QueryIn on the bridge's link too
  write_all(d, bridge_out, 5);
  write_all(d, query_out, 5);
  read_exact(d, p, 5);
  if (memcmp(p, (unsigned char[]){ 1, 3, 0x11, 0, 0 }, 5)) return 7;   // EnIdle to the bridge: a 1 x 1 mesh
  write_all(d, bridge_out, 5);
  const char *line = "hi\n";
  for (const char *c = line; *c; c++) {
    unsigned char out[5] = { 0, 2, 1, 2, (unsigned char)*c };   // thread 1 of core 2
    write_all(d, out, 5);
  }
  read_exact(d, p, 5);
  if (memcmp(p, (unsigned char[]){ 0, 1, 0, 0x80, 0 }, 5)) return 2;   // SetDest thread 0, every core
  read_exact(d, p, 5);
  if (memcmp(p, (unsigned char[]){ 0, 2, 'g', 0, 0 }, 5)) return 3;
  read_exact(d, p, 5);
  if (memcmp(p, (unsigned char[]){ 0, 1, 4, 9, 0 }, 5)) return 4;     // thread 4 of core 9
  read_exact(d, p, 5);
  if (memcmp(p, (unsigned char[]){ 0, 2, 'x', 0, 0 }, 5)) return 5;
  return 0;
}

static void test_debuglink(int hlfd) {
  int dlfd = listen_on(debug_addr);
  pid_t child = fork();
  if (child == 0) _exit(debug_server(dlfd));
  char err[512];
  hostlink *h = hl_open(host_addr, debug_addr, &board1, err, sizeof err);
  CHECK(h != NULL, "hl_open with a DebugLink: %s", err);
  if (!h) return;
  int s = accept(hlfd, NULL, NULL);
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  long seen = 0;
  for (int i = 0; i < 100 && seen < 3; i++) {
    long n = hl_poll_stdout(h, mem);
    if (n < 0) break;
    seen += n;
    if (seen < 3) usleep(10000);
  }
  fclose(mem);
  CHECK(seen == 3 && text && !strcmp(text, "0:0:2:1: hi\n"), "StdOut line: %ld bytes, \"%s\"", seen, text ? text : "");
  free(text);
  CHECK(hl_put_stdin(h, 0, 0, -1, 0, 'g') == 0, "StdIn broadcast: %s", hl_error(h));
  CHECK(hl_put_stdin(h, 0, 0, 9, 4, 'x') == 0, "StdIn to one thread: %s", hl_error(h));
  CHECK(hl_put_stdin(h, 0, 0, 9, 16, 'x') == -1 && strstr(hl_error(h), "0..15"), "bad thread: %s", hl_error(h));
  int status = -1;
  waitpid(child, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the DebugLink server saw SetDest and StdIn (status %d)",
        WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  hl_close(h);
  close(s);
  close(dlfd);
}

int main(void) {
  snprintf(host_addr, sizeof host_addr, "unix:@hostlink-test-%d", (int)getpid());
  snprintf(debug_addr, sizeof debug_addr, "unix:@hostlink-test-debug-%d", (int)getpid());
  test_errors();
  test_geometry();
  int lfd = listen_on(host_addr);
  test_addresses(lfd);
  char err[512];
  hostlink *h = hl_open(host_addr, NULL, &board1, err, sizeof err);
  CHECK(h != NULL, "hl_open: %s", err);
  if (!h) return UNIT_FINISH();
  int s = accept(lfd, NULL, NULL);
  test_messages(h, s);
  test_boot(h, s);
  // The server goes away in the middle of a message: the part is reported, not dropped.
  uint32_t m[16] = { 0 };
  write_all(s, m, 10);
  close(s);
  CHECK(hl_recv(h, m, 1000) == -1 &&
            strstr(hl_error(h), "the server closed the connection in the middle of a message (10 of its 64 bytes received)"),
        "server closed: %s", hl_error(h));
  int sent = 0;
  for (int i = 0; i < 1000 && hl_send(h, 0, 4, m) == 0; i++) sent++;
  CHECK(sent < 1000 && strstr(hl_error(h), "closed"), "send after close fails: %s", hl_error(h));
  hl_close(h);
  test_debuglink(lfd);
  close(lfd);
  return UNIT_FINISH();
}
