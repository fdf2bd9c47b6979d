/*
 * engine_hostlink.c: invocations on Tinsel hardware over HostLink: the
 * cycle model (engine "sim": this process starts tsim and talks to it) or
 * real boxes (engine "hostlink": OP2_TINSEL_HOSTLINK, e.g.
 * unix:@pciestream, and OP2_TINSEL_DEBUGLINK). Same code for both.
 *
 * The instance is resident (images.h): at the first invocation (streamed:
 * once, when the host first waits; the calls before are held), and again
 * whenever the instance changes (a new binding, bindings.c), the engine
 * builds the thread images and loads the boards (each core pair's code
 * group, the router tables, the thread images), starts the threads and
 * keeps them running. Two load methods (OP2_TINSEL_LOAD): "hostlink"
 * writes everything through the boot loaders and starts the cores with
 * StartCmd and the go byte; "preload" (the sim engine's default, model
 * only) writes it into a tsim --preload file and starts tsim with it. To
 * change a loaded instance the engine brings the dats the host has not
 * seen back, then either stops every thread with SS_KEY_EXIT, which
 * returns it to the boot loader for the next hostlink load (no reset, no
 * tsim restart), or (preload) stops tsim and starts a new one.
 *
 * Per invocation: the begin (one hl_key_send of the invocation's begin
 * routing key, which the board routers fan out; OP2_TINSEL_BEGIN=threads:
 * one hl_send per involved thread) and the one SS_KEY_END of the root
 * (checked to stand for every involved device). Streamed (start, wait:
 * invoke.c), the host sends begins ahead and takes the ends as they come,
 * by invocation; one at a time (run, OP2_TINSEL_STREAM=0), a CYCLES request
 * to the root thread before and after gives the invocation's cycles. Dats move on demand with
 * LOAD and STORE requests (fetch and push, for resident.c). At op_exit the
 * engine reads every thread's softswitch statistics, closes the link and
 * prints a summary (sim_report.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "elf32.h"
#include "hostlink.h"
#include "images.h"
#include "op2t_internal.h"
#include "op2t_report.h"
#include "op2t_sim.h"
#include "softswitch.h"
#include "tsim_preload_write.h"

static struct {
  int spawn;                    /* the sim engine: tsim is our child */
  const char *name;
  op2t_tsim tsim;
  hostlink *h;
  op2t_images *im;
  unsigned loaded;              /* instance generation in the images */
  op_set *loaded_set;           /* [ntypes]: each type's devices in the images */
  int *loaded_n;
  int timeout_s;                /* longest wait for one message */
  int exiting;                  /* in finish (at exit): die with _exit */
  int dead;                     /* died: nothing more to say to the boards */
  int no_debug;                 /* hostlink engine without OP2_TINSEL_DEBUGLINK: no thread output */
  int preload;                  /* OP2_TINSEL_LOAD=preload: tsim --preload, not the boot loader */
  int begin_by_key;             /* not OP2_TINSEL_BEGIN=threads: one keyed begin per invocation */
  int fresh;                    /* this load goes into a tsim just started: memory is zero */
  op2t_hw_stats st;
} hw;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static _Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static _Noreturn void die(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  fprintf(stderr, "op2 tinsel: %s engine: %s\n", hw.name, buf);
  hw.dead = 1;
  if (hw.spawn && hw.tsim.dir[0]) {
    int st = op2t_tsim_exited(&hw.tsim);
    if (st >= 0)
      fprintf(stderr, "op2 tinsel: tsim exited with status %d; the end of its output:\n", st);
    else
      fprintf(stderr, "op2 tinsel: tsim (%s) is still running; the end of its output:\n", hw.tsim.cmd);
    op2t_tsim_log_tail(&hw.tsim, stderr, 12);
    if (st < 0) {
      hl_close(hw.h);
      hw.h = NULL;
      op2t_tsim_stop(&hw.tsim, 2);
    }
    op2t_tsim_cleanup(&hw.tsim);
  }
  if (hw.exiting)
    _exit(1);
  exit(1);
}

/* ------------------------------------------------------------ messages */

/* One message to thread DEST, or with BY_KEY through the board router's
 * records of routing key DEST (hl_key_send). */
static void send_any(int by_key, uint32_t dest, uint16_t key, uint8_t pin, const void *payload, int bytes) {
  if (bytes > SS_MAX_PAYLOAD)
    die("a %d-byte payload to %s 0x%x does not fit a message (%d bytes after the %d-byte header)", bytes,
        by_key ? "routing key" : "thread", dest, SS_MAX_PAYLOAD, SS_HEADER_BYTES);
  _Alignas(8) uint8_t msg[64] = {0};
  ss_msg_header hdr = {key, pin, 0, 0};
  memcpy(msg, &hdr, sizeof(hdr));
  if (bytes)
    memcpy(msg + SS_HEADER_BYTES, payload, (size_t)bytes);
  int flits = (SS_HEADER_BYTES + bytes + 15) / 16;
  if ((by_key ? hl_key_send(hw.h, dest, flits, msg) : hl_send(hw.h, dest, flits, msg)) != 0)
    die("sending to %s 0x%x: %s", by_key ? "routing key" : "thread", dest, hl_error(hw.h));
  hw.st.host_sent++;
}

static void send_msg(uint32_t dest, uint16_t key, uint8_t pin, const void *payload, int bytes) {
  send_any(0, dest, key, pin, payload, bytes);
}

/* Every line the threads printed before now is out on stdout, before
 * the program's own next line (hl_sync_stdout: a DebugLink round trip). */
static void sync_output(void) {
  fflush(stdout);
  if (!hw.no_debug && hl_sync_stdout(hw.h, stdout) < 0)
    die("the debug link failed while the host collected the threads' output: %s", hl_error(hw.h));
}

/* The next message from the boards; dies on a dead link or after the timeout. */
static void recv_msg(uint8_t msg[64], const char *waiting_for) {
  double t0 = now();
  for (;;) {
    int rc = hl_recv(hw.h, msg, 500);
    if (rc == 1) {
      hw.st.host_recv++;
      if (!hw.no_debug && hl_poll_stdout(hw.h, stdout) < 0)
        die("the debug link failed: %s", hl_error(hw.h));
      return;
    }
    if (rc < 0)
      die("the link failed while waiting for %s: %s", waiting_for, hl_error(hw.h));
    if (!hw.no_debug && hl_poll_stdout(hw.h, stdout) < 0)
      die("the debug link failed: %s", hl_error(hw.h));
    if (hw.spawn && op2t_tsim_exited(&hw.tsim) >= 0)
      die("tsim stopped while the host waited for %s", waiting_for);
    if (now() - t0 > hw.timeout_s)
      die("no message for %d s while waiting for %s (OP2_TINSEL_TIMEOUT)", hw.timeout_s, waiting_for);
  }
}

static ss_msg_header header_of(const uint8_t *msg) {
  ss_msg_header h;
  memcpy(&h, msg, sizeof(h));
  return h;
}

static op2t_run **flight(void);
static void take_end(const uint8_t *msg, const char *what);

/* The reply to a request: ends of invocations still under way that come
 * first go to their controllers (a program that ends without op_exit). */
static void recv_reply(uint8_t msg[64], const char *waiting_for) {
  for (;;) {
    recv_msg(msg, waiting_for);
    ss_msg_header h = header_of(msg);
    if (h.key != SS_KEY_END || !flight()[h.pin])
      return;
    take_end(msg, waiting_for);
  }
}

static uint64_t cycles_of(uint32_t thread) {
  send_msg(thread, SS_KEY_CYCLES, 0, NULL, 0);
  _Alignas(8) uint8_t msg[64];
  recv_reply(msg, "a cycle count");
  ss_msg_header h = header_of(msg);
  if (h.key != SS_KEY_CYCLES || h.src != thread)
    die("expected the cycle count of thread 0x%x, got key 0x%x from 0x%x", thread, h.key, h.src);
  ss_sys_mem m; /* {SS_CYCLES_OFF, 2, {lo, hi}} */
  memcpy(&m, msg + SS_HEADER_BYTES, sizeof(m));
  if (m.count != 2)
    die("thread 0x%x answered a cycle count request with %u words", thread, m.count);
  return (uint64_t)m.words[1] << 32 | m.words[0];
}

/* ---------------------------------------------------- loads and stores */

/* One request of a batch: COUNT words at image offset OFF of thread T. */
typedef struct {
  uint32_t t;            /* index into im->threads */
  uint32_t off, count;
  char *dst;             /* LOAD: where the words go */
  uint32_t skip, bytes;  /* LOAD: bytes of the reply used (unaligned ends) */
  const uint32_t *words; /* STORE */
} Req;

typedef struct {
  Req *r;
  size_t n, cap;
} Reqs;

static void add_req(Reqs *q, Req r) {
  if (q->n == q->cap) {
    q->cap = q->cap ? 2 * q->cap : 256;
    q->r = op2t_grow(q->r, q->cap, sizeof(Req));
  }
  q->r[q->n++] = r;
}

/* Sends every LOAD, at most one outstanding per thread and a window of
 * them in all, and copies the replies where they belong. */
static void run_loads(Reqs *q) {
  enum { WINDOW = 128 };
  uint32_t nthreads = hw.im->nthreads;
  char *busy = op2t_calloc(nthreads + 1, 1);
  size_t *which = op2t_calloc(nthreads + 1, sizeof(size_t));
  size_t next = 0, done = 0, out = 0;
  while (done < q->n) {
    for (size_t i = next; i < q->n && out < WINDOW; i++) {
      Req *r = &q->r[i];
      if (r->count == 0 || (r->count & 0x80000000u) || busy[r->t])
        continue;
      ss_sys_mem m = {r->off, r->count, {0}};
      send_msg(hw.im->threads[r->t].addr, SS_KEY_LOAD, 0, &m, 8);
      busy[r->t] = 1;
      which[r->t] = i;
      r->count |= 0x80000000u; /* sent */
      out++;
      if (i == next)
        next++;
    }
    while (next < q->n && (q->r[next].count & 0x80000000u))
      next++;
    _Alignas(8) uint8_t msg[64];
    recv_reply(msg, "a load reply");
    ss_msg_header h = header_of(msg);
    ss_sys_mem m;
    memcpy(&m, msg + SS_HEADER_BYTES, sizeof(m));
    uint32_t t = 0;
    while (t < nthreads && hw.im->threads[t].addr != h.src)
      t++;
    if (h.key != SS_KEY_LOAD || t == nthreads || !busy[t])
      die("expected a load reply, got key 0x%x from thread 0x%x", h.key, h.src);
    Req *r = &q->r[which[t]];
    if (m.count != (r->count & 0x7fffffffu) || m.off != r->off)
      die("thread 0x%x answered a load of %u words at +%u with %u words at +%u (outside its image?)", h.src,
          r->count & 0x7fffffffu, r->off, m.count, m.off);
    memcpy(r->dst, (const char *)m.words + r->skip, r->bytes);
    busy[t] = 0;
    out--;
    done++;
  }
  free(busy);
  free(which);
}

static uint32_t thread_of(int type, int e) { return hw.im->dev[type][e].thread; }

static int fetch(const op2t_devs *devs, int type, int off, int bytes) {
  if (!hw.im)
    return 0; /* nothing loaded: the mirror is the device state */
  const op2t_devs *d = &devs[type];
  Reqs q = {0};
  for (int e = 0; e < d->n; e++) {
    uint32_t start = hw.im->dev[type][e].state_off + (uint32_t)off, end = start + (uint32_t)bytes;
    char *dst = d->state + (size_t)e * d->state_bytes + off;
    for (uint32_t a = start & ~3u; a < end; a += 4 * SS_SYS_MEM_WORDS) {
      uint32_t words_end = a + 4 * SS_SYS_MEM_WORDS < end ? a + 4 * SS_SYS_MEM_WORDS : (end + 3) & ~3u;
      uint32_t from = a < start ? start : a, to = words_end < end ? words_end : end;
      add_req(&q, (Req){thread_of(type, e), a, (words_end - a) / 4, dst + (from - start), from - a, to - from, NULL});
    }
  }
  double t0 = now();
  run_loads(&q);
  hw.st.fetch_seconds += now() - t0;
  hw.st.fetches++;
  free(q.r);
  return 0;
}

static int push(const op2t_devs *devs, int type, int off, int bytes) {
  if (!hw.im || hw.loaded != op2t_instance_generation())
    return 0; /* the next load writes the mirror's states */
  const op2t_devs *d = &devs[type];
  if (off % 4 || bytes % 4)
    die("a dat of %d bytes at offset %d of %s's state is not whole words; STORE moves words", bytes, off,
        op2t_graph_info.types[type].name);
  for (int e = 0; e < d->n; e++) {
    uint32_t start = hw.im->dev[type][e].state_off + (uint32_t)off;
    const char *src = d->state + (size_t)e * d->state_bytes + off;
    for (int b = 0; b < bytes; b += 4 * SS_SYS_MEM_WORDS) {
      ss_sys_mem m = {start + (uint32_t)b, 0, {0}};
      m.count = (uint32_t)((bytes - b) / 4 < (int)SS_SYS_MEM_WORDS ? (bytes - b) / 4 : (int)SS_SYS_MEM_WORDS);
      memcpy(m.words, src + b, 4 * m.count);
      send_msg(hw.im->threads[thread_of(type, e)].addr, SS_KEY_STORE, 0, &m, (int)(8 + 4 * m.count));
    }
  }
  hw.st.pushes++;
  return 0;
}

/* ---------------------------------------------------------------- boot */

/* Boot loader writes: BYTES at ADDR through global core CORE, into its
 * instruction memory (instr) or its memory (Store). */
typedef struct {
  int core, instr;
  uint32_t addr;
  uint32_t *words;
  size_t n, done;
} Write;

typedef struct {
  Write *w;
  size_t n, cap;
} Writes;

static void add_write(Writes *wr, int core, int instr, uint32_t addr, const void *bytes, uint32_t len) {
  if (wr->n == wr->cap) {
    wr->cap = wr->cap ? 2 * wr->cap : 256;
    wr->w = op2t_grow(wr->w, wr->cap, sizeof(Write));
  }
  size_t n = (len + 3) / 4;
  Write *w = &wr->w[wr->n++];
  *w = (Write){core, instr, addr, op2t_calloc(n + 1, sizeof(uint32_t)), n, 0};
  if (bytes) /* else zeros */
    memcpy(w->words, bytes, len);
}

/* The same, leaving out runs of at least 16 zero words when the memory is
 * all zero (a tsim just started): thread images are mostly zeroed scratch
 * (tree nodes, ready bits). Real boards and reloads get every word. */
static void add_write_sparse(Writes *wr, int core, uint32_t addr, const uint8_t *bytes, uint32_t len) {
  enum { GAP = 16 };
  if (!hw.fresh) {
    add_write(wr, core, 0, addr, bytes, len);
    return;
  }
  uint32_t nw = (len + 3) / 4, i = 0;
  uint32_t *w = op2t_calloc(nw + 1, sizeof(uint32_t));
  memcpy(w, bytes, len);
  while (i < nw) {
    while (i < nw && !w[i])
      i++;
    uint32_t start = i, zeros = 0;
    while (i < nw && zeros < GAP) {
      zeros = w[i] ? 0 : zeros + 1;
      i++;
    }
    uint32_t end = i - zeros;
    if (end > start)
      add_write(wr, core, 0, addr + 4 * start, w + start, 4 * (end - start));
  }
  free(w);
}

/* hl_write_instrs checks the code against the boards' instruction memory
 * (hl_set_instr_bytes in connect_link for tsim --imem enlarged). */
static int write_instrs(int x, int y, int core, uint32_t addr, const uint32_t *words, size_t n) {
  return hl_write_instrs(hw.h, x, y, core, addr, words, n);
}

static void free_writes(Writes *wr) {
  for (size_t i = 0; i < wr->n; i++)
    free(wr->w[i].words);
  free(wr->w);
  memset(wr, 0, sizeof(*wr));
}

/* Round robin over the writes, CHUNK words each turn (a SetAddr and a few
 * messages), so every core's boot loader works at once. */
static void run_writes(Writes *wr, const PlaceMachine *m) {
  enum { CHUNK = 60 };
  int cores_per_board = m->mboxes_per_board * m->cores_per_mbox;
  for (size_t left = wr->n; left;) {
    left = 0;
    for (size_t i = 0; i < wr->n; i++) {
      Write *w = &wr->w[i];
      if (w->done == w->n)
        continue;
      size_t k = w->n - w->done < CHUNK ? w->n - w->done : CHUNK;
      int b = w->core / cores_per_board, x = b % m->boards_x, y = b / m->boards_x, c = w->core % cores_per_board;
      uint32_t addr = w->addr + 4 * (uint32_t)w->done;
      int rc = w->instr ? write_instrs(x, y, c, addr, w->words + w->done, k)
                        : hl_store(hw.h, x, y, c, addr, w->words + w->done, k);
      if (rc != 0)
        die("writing %zu words at 0x%x through core %d of board (%d, %d): %s", k, addr, c, x, y, hl_error(hw.h));
      w->done += k;
      left += w->done < w->n;
    }
  }
  free_writes(wr);
}

/* The same writes as a tsim --preload file (model only): code into each
 * core's pair, data as the core sees it, and every core in STARTED started
 * with the threads in MASK where the boot loader starts the application. */
static void write_preload(const char *path, const Writes *wr, const char *started, int ncores, uint32_t mask) {
  op2t_preload p;
  if (op2t_preload_open(&p, path) != 0)
    die("cannot create the preload file %s: %s", path, strerror(errno));
  for (size_t i = 0; i < wr->n; i++) {
    const Write *w = &wr->w[i];
    if (w->instr)
      op2t_preload_code(&p, (uint32_t)w->core, w->addr, w->words, (uint32_t)(4 * w->n));
    else
      op2t_preload_data(&p, (uint32_t)w->core, w->addr, w->words, (uint32_t)(4 * w->n));
  }
  for (int c = 0; c < ncores; c++)
    if (started[c])
      op2t_preload_start(&p, (uint32_t)c, TinselMaxBootImageBytes, mask);
  unsigned long long bytes = p.bytes;
  if (op2t_preload_close(&p) != 0)
    die("writing the preload file %s: %s", path, strerror(errno));
  hw.st.preload_bytes += bytes;
}

/* Every board's QueryIn reserves the extra send slots (slot 64 + t of
 * thread t; the receive pool shrinks to 384 slots) unless
 * OP2_TINSEL_EXTRA_SLOT=0: the images say so (SS_FLAG_EXTRA_SLOT), and
 * each thread keeps its softswitch's hot state there, in the mailbox's
 * scratchpad (docs/softswitch.md). */
static hl_options link_options(void) { return (hl_options){op2t_extra_slot() ? HL_EXTRA_SEND_SLOT : 0u}; }

/* Connects to the tsim just started. tsim creates its host-link socket
 * (unix:DIR/host) when it listens, after it has loaded every board:
 * minutes on the cluster at 720k cells. So one loop: hl_open only once
 * the socket is there (hl_open's own attempts cannot see tsim exit, and
 * their number, HOSTLINK_CONNECT_ATTEMPTS, would bound the load), tsim
 * watched every 50 ms, within OP2_TINSEL_TIMEOUT, saying so every minute. */
static void connect_tsim(const hl_geometry *geo) {
  const char *path = hw.tsim.host + strlen("unix:");
  char err[512] = "its socket is not there yet";
  hl_options opts = link_options();
  double t0 = now(), said = t0;
  while (access(path, F_OK) != 0 ||
         !(hw.h = hl_open_opts(hw.tsim.host, hw.tsim.debug, geo, &opts, err, sizeof(err)))) {
    int st = op2t_tsim_exited(&hw.tsim);
    if (st >= 0)
      die("tsim stopped before it took the link (exit status %d; %s)", st, err);
    if (now() - t0 > hw.timeout_s)
      die("cannot connect to tsim on %s within %d s (OP2_TINSEL_TIMEOUT): %s", hw.tsim.host, hw.timeout_s, err);
    if (now() - said >= 60) {
      said = now();
      fprintf(stderr, "op2 tinsel: sim engine: waiting for tsim to load and listen on the host link: %.0f s\n",
              said - t0);
    }
    struct timespec nap = {0, 50 * 1000 * 1000};
    nanosleep(&nap, NULL);
  }
}

/* Connects (the sim engine starts tsim first, with PRELOAD's writes as its
 * --preload file when given). TEXT_END: the highest end of code in any
 * image, which decides whether the instruction memory must be the
 * enlarged one (a model-only parameter, tsim --imem enlarged). */
static void connect_link(uint32_t text_end, const Writes *preload, const char *started, uint32_t mask) {
  const PlaceMachine *m = &hw.im->machine;
  char err[512];
  /* The library addresses threads in the machine's own layout (a tile's
   * differs from a board's); the mesh is the one placed on. */
  hl_geometry geo;
  if (hl_geometry_load(m->name, &geo, err, sizeof(err)) != 0)
    die("the geometry of %s: %s", m->name, err);
  geo.boards_x = m->boards_x;
  geo.boards_y = m->boards_y;
  /* tsim serves a mesh wider than a box (the cluster) as one box on one
   * DebugLink: its QueryIn ids then carry MeshXBits of X (tsim_debuglink.c). */
  if (hw.spawn && geo.boards_x > 1 << geo.mesh_x_bits_within_box)
    geo.mesh_x_bits_within_box = geo.mesh_x_bits;
  const char *imem = getenv("OP2_TINSEL_IMEM");
  int enlarged = imem && *imem ? !strcmp(imem, "enlarged") : text_end > TinselInstrBytesPerCore;
  uint32_t have = enlarged ? TinselMaxBootImageBytes + TinselEnlargedAppInstrBytes : TinselInstrBytesPerCore;
  if (text_end > have || (enlarged && !hw.spawn))
    die("the code needs %u bytes of instruction memory; %s has %u", text_end,
        enlarged ? "only the model's enlarged one (tsim --imem enlarged)" : "real Tinsel", have);
  if (hw.spawn) {
    if (enlarged)
      fprintf(stderr, "op2 tinsel: sim engine: the code needs %u bytes of instruction memory (real Tinsel: %u): "
              "tsim --imem enlarged, a model-only configuration\n", text_end, (unsigned)TinselInstrBytesPerCore);
    if (op2t_tsim_mkdir(&hw.tsim))
      exit(1);
    if (preload)
      write_preload(hw.tsim.preload, preload, started, m->nunits * m->cores_per_unit, mask);
    if (op2t_tsim_start(&hw.tsim, m->name, getenv("OP2_TINSEL_DELAY_SEED"), enlarged, preload != NULL))
      exit(1);
    hw.st.tsim_cmd = hw.tsim.cmd;
    connect_tsim(&geo);
  } else {
    const char *host = getenv("OP2_TINSEL_HOSTLINK"), *debug = getenv("OP2_TINSEL_DEBUGLINK");
    if (!host || !*host)
      die("OP2_TINSEL_HOSTLINK is not set (unix:@pciestream on a POETS box; tcl/poets.tcl run sets it)");
    if (debug && strchr(debug, ','))
      die("OP2_TINSEL_DEBUGLINK=%s names several boxes' DebugLinks; libhostlink opens one box's (runs on "
          "several boxes, OP2_TINSEL_BOXES beyond 1x1, are not supported yet)", debug);
    hl_options opts = link_options();
    if (!(hw.h = hl_open_opts(host, debug && *debug ? debug : NULL, &geo, &opts, err, sizeof(err))))
      die("cannot open the host link %s: %s", host, err);
    if (!debug || !*debug)
      fprintf(stderr, "op2 tinsel: warning: OP2_TINSEL_DEBUGLINK is not set: what the threads print "
                      "(printf in kernels) is not collected\n");
    hw.no_debug = !debug || !*debug;
  }
  if (enlarged && hl_set_instr_bytes(hw.h, 4u << TinselEnlargedLogInstrsPerCore))
    die("%s", hl_error(hw.h));
}

static void check_fits(const op2t_run *r) {
  const op2t_graph *g = r->graph;
  for (int k = 0; k < g->ninvocations; k++) {
    const op2t_invocation *inv = g->invocations[k];
    if (inv->begin_bytes > SS_MAX_PAYLOAD || inv->end_bytes > SS_MAX_PAYLOAD)
      die("%s: its begin (%d bytes) or end (%d bytes) message does not fit the %d-byte payload of a message",
          inv->name, inv->begin_bytes, inv->end_bytes, SS_MAX_PAYLOAD);
  }
}

/* Every thread's softswitch statistics, into OUT[nthreads]: KEY is
 * SS_KEY_STATS, or SS_KEY_EXIT, after which each thread also returns from
 * main (thread 0 of every core into the boot loader). Requests go out a
 * window at a time, one per thread: a round trip per thread in turn would
 * cost seconds on the model. */
static void thread_stats(uint16_t key, ss_stats *out) {
  enum { WINDOW = 128 };
  const char *what = key == SS_KEY_EXIT ? "the threads' exit acknowledgements (SS_KEY_EXIT)" : "softswitch statistics";
  uint32_t n = hw.im->nthreads, sent = 0, got = 0;
  char *done = op2t_calloc(n + 1, 1);
  while (got < n) {
    while (sent < n && sent - got < WINDOW)
      send_msg(hw.im->threads[sent++].addr, key, 0, NULL, 0);
    _Alignas(8) uint8_t msg[64];
    recv_reply(msg, what);
    ss_msg_header h = header_of(msg);
    uint32_t t = 0;
    while (t < sent && hw.im->threads[t].addr != h.src)
      t++;
    if (h.key != key || t == sent || done[t])
      die("waiting for %s, got key 0x%x from thread 0x%x", what, h.key, h.src);
    ss_sys_mem m; /* {SS_STATS_OFF, 8, ss_stats} */
    memcpy(&m, msg + SS_HEADER_BYTES, sizeof(m));
    if (m.count != sizeof(ss_stats) / 4)
      die("thread 0x%x answered a statistics request (key 0x%x) with %u words", h.src, key, m.count);
    memcpy(&out[t], m.words, sizeof(ss_stats));
    done[t] = 1;
    got++;
  }
  free(done);
}

/* Group G's ELF: beside the executable (op2t_group_elf), or in
 * OP2_TINSEL_FW (an op2c --gen-dir's fw/). */
static const char *group_elf(int g) {
  static char path[4200];
  const char *dir = getenv("OP2_TINSEL_FW");
  const char *p = op2t_group_elf(g);
  if (dir && *dir) {
    const char *rel = p; /* what follows the last ".fw/": a layout's NAME/ and the file */
    for (const char *q = strstr(p, ".fw/"); q; q = strstr(q + 1, ".fw/"))
      rel = q + 4;
    snprintf(path, sizeof(path), "%s/%s", dir, rel);
    p = path;
  }
  if (access(p, R_OK) != 0)
    die("firmware image %s not found (op2c puts the images beside the executable, those for a thread layout "
        "other than the board's, such as a tile's, in EXE.fw/NAME/ with op2c --fw-config NAME; OP2_TINSEL_FW=DIR "
        "names another directory, such as an op2c --gen-dir's fw/)", p);
  return p;
}

/* A reload. The device states of the types still bound to the same sets
 * come back whole into the mirror (dats the host has not seen, and
 * whatever else the protocol keeps between invocations); the dats the host
 * copy is current for are written over them again. Then the threads stop:
 * loading by hostlink, SS_KEY_EXIT returns them to the boot loaders, which
 * take the next load over the same link (real boards need no reset, the
 * model no restart); by preload, tsim stops and the next load starts a new
 * one. */
static void release_boards(const op2t_devs *devs) {
  if (getenv("OP2_TINSEL_RELOAD_STATES")) {
    for (int t = 0; t < op2t_graph_info.ntypes; t++)
      if (hw.loaded_n[t] && devs[t].set == hw.loaded_set[t] && devs[t].n == hw.loaded_n[t])
        fetch(devs, t, 0, devs[t].state_bytes);
    op2t_resident_reapply();
  } else {
    op2t_resident_sync_all();
  }
  ss_stats *ss = op2t_calloc(hw.im->nthreads + 1, sizeof(ss_stats));
  if (hw.preload)
    thread_stats(SS_KEY_STATS, ss);
  else
    thread_stats(SS_KEY_EXIT, ss);
  for (uint32_t t = 0; t < hw.im->nthreads; t++) {
    hw.st.ss_before.sent_local += ss[t].sent_local;
    hw.st.ss_before.sent_remote += ss[t].sent_remote;
  }
  free(ss);
  if (hw.preload) {
    hl_close(hw.h);
    hw.h = NULL;
    int st = op2t_tsim_stop(&hw.tsim, 30);
    op2t_kv_read(&hw.st.tsim_stats, hw.tsim.stats);
    if (st != 0)
      die("tsim exited with status %d when the host closed the link", st);
    op2t_tsim_cleanup(&hw.tsim);
  }
  op2t_images_free(hw.im);
  hw.im = NULL;
}

static void boot(op2t_run *r) {
  double t0 = now();
  if (hw.im)
    release_boards(r->devs);
  /* Memory is all zero only in a tsim just started: then runs of zeros
   * need not be written. */
  hw.fresh = hw.spawn && !hw.h;
  check_fits(r);
  const op2t_graph *g = r->graph;
  int nbound;
  op2t_bound_inv *bound = op2t_bound_invs(&nbound);
  /* Code groups as op2c made them (one image, img_all, for executables
   * built before it wrote op2t_groups). */
  op2t_images_options opt = {.config = op2t_config_name(), .fanin = r->fanin, .seed = op2t_place_seed(),
                             .one_group = op2t_groups.ngroups == 0};
  char err[1024];
  hw.im = op2t_images_build(r->devs, bound, nbound, r->graph_props, &opt, err, sizeof(err));
  free(bound);
  if (!hw.im)
    die("the instance does not fit: %s", err);
  const PlaceMachine *m = &hw.im->machine;
  uint32_t text_end = 0;
  int cores_per_board = m->mboxes_per_board * m->cores_per_mbox;
  int *cores = op2t_calloc((size_t)m->nunits * m->cores_per_unit + 1, sizeof(int)); /* to start */
  /* 1-3. Code, data, router tables and thread images, as boot loader
   * writes. Each core's boot loader handles its messages alone, so the
   * writes are interleaved across cores (a few messages to each in turn)
   * instead of filling one core's mailbox at a time. */
  Writes wr = {0};
  char *loaded = op2t_calloc((size_t)m->nunits * m->cores_per_unit + 1, 1); /* DRAM slices with group data */
  int ngroups = 0;
  for (int u = 0; u < hw.im->nunits; u++)
    if (hw.im->code_group[u] >= ngroups)
      ngroups = hw.im->code_group[u] + 1;
  Elf32 *elfs = op2t_calloc((size_t)ngroups + 2, sizeof(Elf32));
  for (int grp = -1; grp < ngroups; grp++) {
    Elf32 *e = &elfs[grp + 1];
    int used = 0;
    for (int u = 0; u < hw.im->nunits; u++)
      used |= hw.im->code_group[u] == grp;
    if (!used)
      continue;
    const char *path = group_elf(grp);
    char err[512];
    if (elf32_load(path, e, err, sizeof(err)) != 0)
      die("code group %d: %s", grp, err);
    memset(loaded, 0, (size_t)m->nunits * m->cores_per_unit + 1);
    for (int u = 0; u < hw.im->nunits; u++) {
      if (hw.im->code_group[u] != grp)
        continue;
      int core = u * m->cores_per_unit; /* the pair shares its instruction memory */
      int slice = core / (cores_per_board / m->drams_per_board);
      for (int s = 0; s < e->nsecs; s++) {
        const Elf32Section *sec = &e->secs[s];
        if (sec->kind & ELF32_SEC_NOBITS) {
          /* .bss: zero in a tsim just started, else written as zeros */
          if (!hw.fresh && !loaded[slice])
            add_write(&wr, core, 0, sec->addr, NULL, sec->size);
          continue;
        }
        if ((sec->kind & ELF32_SEC_EXEC) && sec->addr + sec->size > text_end)
          text_end = sec->addr + sec->size;
        if (sec->kind & ELF32_SEC_EXEC)
          add_write(&wr, core, 1, sec->addr, sec->data, sec->size);
        else if (!loaded[slice])
          add_write(&wr, core, 0, sec->addr, sec->data, sec->size);
      }
      loaded[slice] = 1;
    }
  }
  for (int i = 0; i < hw.im->ntables; i++) {
    const op2t_image_table *tb = &hw.im->tables[i];
    add_write(&wr, tb->board * cores_per_board + tb->ram * (cores_per_board / m->drams_per_board), 0, tb->addr,
              tb->bytes, (uint32_t)tb->len);
  }
  char *started = op2t_calloc((size_t)m->nunits * m->cores_per_unit + 1, 1);
  for (uint32_t t = 0; t < hw.im->nthreads; t++) {
    const op2t_image_thread *th = &hw.im->threads[t];
    int core = (int)(th->index / (uint32_t)m->threads_per_core);
    add_write_sparse(&wr, core, th->load_addr, th->image, th->bytes);
    started[core] = 1;
    hw.st.image_bytes += th->bytes;
  }
  /* 4. start the cores with images, all their threads: from the first
   * cycle with a preload; else through the boot loaders (StartCmd, go). */
  uint32_t all = m->threads_per_core >= 32 ? ~0u : (1u << m->threads_per_core) - 1;
  if (!hw.h) /* else the boot loaders are back (SS_KEY_EXIT) on the open link */
    connect_link(text_end, hw.preload ? &wr : NULL, started, all);
  if (hl_set_timeout(hw.h, hw.timeout_s * 1000) != 0)
    die("%s", hl_error(hw.h));
  if (hw.preload)
    free_writes(&wr);
  else
    run_writes(&wr, m);
  for (int grp = -1; grp < ngroups; grp++)
    if (elfs[grp + 1].buf)
      elf32_free(&elfs[grp + 1]);
  free(elfs);
  free(loaded);
  int n = 0;
  for (int c = 0; c < m->nunits * m->cores_per_unit; c++)
    if (started[c])
      cores[n++] = c;
  if (!hw.preload && (hl_start(hw.h, cores, n, m->threads_per_core - 1) != 0 || hl_go(hw.h) != 0))
    die("starting %d cores: %s", n, hl_error(hw.h));
  free(started);
  free(cores);
  hw.loaded = op2t_instance_generation(); /* what the images hold: r->instance, or later for held runs */
  if (!hw.loaded_n) {
    hw.loaded_n = op2t_calloc((size_t)g->ntypes, sizeof(int));
    hw.loaded_set = op2t_calloc((size_t)g->ntypes, sizeof(op_set));
  }
  for (int t = 0; t < g->ntypes; t++) {
    hw.loaded_n[t] = r->devs[t].n;
    hw.loaded_set[t] = r->devs[t].set;
  }
  hw.st.cycles_at_load = cycles_of(hw.im->threads[0].addr);
  hw.st.loads++;
  hw.st.threads = hw.im->nthreads;
  hw.st.load_seconds += now() - t0;
}

/* ----------------------------------------------------------------- run */

/* The invocations started and not yet ended, by k (at most one call of
 * an invocation is ever under way: invoke.c waits first). */
static op2t_run **flight(void) {
  static op2t_run **f;
  if (!f)
    f = op2t_calloc(SS_MAX_INVOCATIONS, sizeof(op2t_run *));
  return f;
}

/* The begin of R: ONE keyed send that board 0's router (the host link
 * enters there) fans out to every involved thread of every board, or with
 * OP2_TINSEL_BEGIN=threads one send per involved thread. */
static void send_begin(op2t_run *r, const op2t_image_inv *iv) {
  int lt = hw.im->machine.log_threads_per_mbox;
  if (hw.begin_by_key && iv->begin_rkey && iv->begin_rkey[0]) {
    send_any(1, iv->begin_rkey[0], iv->begin_key, 0, r->begin, r->inv->begin_bytes);
    hw.st.host_begins++;
    r->counts->begin += iv->nthreads;
  } else {
    for (uint32_t b = 0; b < iv->nbegins; b++) {
      const op2t_image_dest *d = &iv->begins[b];
      for (int bit = 0; bit < 64; bit++)
        if ((bit < 32 ? d->mask_lo >> bit : d->mask_hi >> (bit - 32)) & 1) {
          send_msg(d->mbox << lt | (uint32_t)bit, iv->begin_key, 0, r->begin, r->inv->begin_bytes);
          hw.st.host_begins++;
          r->counts->begin++;
        }
    }
  }
  /* Reads and writes go once per (device, pin) to every edge of the pin:
   * what the devices send, counted from the edges (the host sees none). */
  for (int i = 0; i < r->nfanouts; i++) {
    const op2t_fanout *f = &r->fanouts[i];
    for (int d = 0; d < r->devs[f->type].n; d++) {
      long n = f->start[d + 1] - f->start[d];
      if (n && f->kind == OP2T_EDGE_READ)
        r->counts->read_sends++, r->counts->read_edges += n;
      else if (n)
        r->counts->write_sends++, r->counts->write_edges += n;
    }
  }
  r->counts->threads += iv->nthreads;
  r->counts->mboxes += iv->nbegins;
}

/* The root's end of a started invocation, to its controller. */
static void take_end(const uint8_t *msg, const char *what) {
  ss_msg_header h = header_of(msg);
  op2t_run *r = h.key == SS_KEY_END ? flight()[h.pin] : NULL;
  if (!r)
    die("waiting for %s, got key 0x%x pin %u from 0x%x", what, h.key, h.pin, h.src);
  const op2t_image_inv *iv = &hw.im->inv[r->k];
  if ((long)h.src != iv->devices)
    die("the end of %s stands for %u devices, expected %ld", r->inv->name, h.src, iv->devices);
  _Alignas(8) uint8_t payload[SS_MAX_PAYLOAD];
  memcpy(payload, msg + SS_HEADER_BYTES, sizeof(payload));
  r->counts->end++;
  r->counts->host_ends++;
  flight()[r->k] = NULL;
  r->on_end(r, -1, -1, iv->devices, payload);
}

/* R's begin to the loaded instance. */
static void send_run(op2t_run *r) {
  const op2t_image_inv *iv = &hw.im->inv[r->k];
  if (!iv->bound || !iv->nthreads)
    die("%s is not in the loaded instance", r->inv->name);
  if (flight()[r->k])
    die("%s was started again before its end came", r->inv->name);
  send_begin(r, iv);
  flight()[r->k] = r;
}

/* Streamed (invoke.c, issue 18 item 2): the begin goes and the host goes
 * on; the threads hold it until their devices are done with the
 * invocations before it (softswitch.c hold_begin). The instance must not
 * change while invocations are under way: invoke.c waits for them first. */
static int start(op2t_run *r) {
  if (!hw.im || hw.loaded != r->instance)
    boot(r);
  send_run(r);
  return 0;
}

/* ---------------------------------------------- held until the first load
 *
 * Issue 19: streamed calls made while nothing is loaded (the program's
 * first calls) are held here, not loaded one by one (airfoil's first
 * iteration loaded five times, each reload after a fetch). The first wait
 * (a call that writes a global, a host read, the timers, op_exit, a call
 * that must follow one of them) loads the instance once, with every
 * invocation bound by then, and sends the held begins in program order,
 * each after the calls it must follow (op2t_run.after) and with at most
 * the window under way. Nothing has run, so the host's mirror is what the
 * devices would hold: no fetch. invoke.c keeps what held calls see. */
static struct {
  op2t_run *r[SS_MAX_INVOCATIONS];
  int n;
} held;

static int holding(void) { return !hw.im && !hw.dead; }

/* Invocations started and not ended that were issued at or before ORDER. */
static int under_way(unsigned order) {
  int n = 0;
  for (unsigned k = 0; k < SS_MAX_INVOCATIONS; k++)
    n += flight()[k] && flight()[k]->order <= order;
  return n;
}

static void take_next_end(void) {
  _Alignas(8) uint8_t msg[64];
  recv_msg(msg, "the end of an invocation held until the load");
  take_end(msg, "the end of an invocation held until the load");
}

static void load_held(void) {
  int n = held.n;
  held.n = 0;
  boot(held.r[n - 1]);
  for (int i = 0; i < n; i++) {
    op2t_run *r = held.r[i];
    while (under_way(UINT_MAX) >= r->window || under_way(r->after))
      take_next_end();
    send_run(r);
  }
}

static int start_streamed(op2t_run *r) {
  if (holding() && r->window > 0) {
    if (held.n == (int)SS_MAX_INVOCATIONS)
      die("more than %u invocations held until the load", SS_MAX_INVOCATIONS);
    held.r[held.n++] = r;
  } else {
    start(r);
  }
  op2t_hw_stats_invocation(&hw.st, r->k, OP2T_NOT_MEASURED);
  return 0;
}

/* Until R's end has come; ends of other started invocations go to theirs. */
static int wait(op2t_run *r) {
  char what[160];
  if (held.n)
    load_held();
  const op2t_image_inv *iv = &hw.im->inv[r->k];
  snprintf(what, sizeof(what), "the end of %s (%ld devices on %u threads)", r->inv->name, iv->devices, iv->nthreads);
  while (flight()[r->k] == r) {
    _Alignas(8) uint8_t msg[64];
    recv_msg(msg, what);
    take_end(msg, what);
  }
  return 0;
}

/* One invocation alone (seed 000's barrier): the root's cycle counter
 * before and after, for the per-invocation figures. */
static int run(op2t_run *r) {
  if (!hw.im || hw.loaded != r->instance)
    boot(r);
  uint32_t root = hw.im->threads[hw.im->inv[r->k].threads[0]].addr;
  uint64_t c0 = cycles_of(root);
  start(r);
  wait(r);
  uint64_t c1 = cycles_of(root);
  op2t_hw_stats_invocation(&hw.st, r->k, c1 - c0);
  sync_output();
  return 0;
}

static void flush_output(void) {
  if (hw.im && hw.h && !hw.dead)
    sync_output();
}

/* ------------------------------------------------------------- finish */

static void finish(void) {
  if (hw.dead)
    return;
  hw.exiting = 1;
  if (held.n) /* a program that ends without op_exit */
    load_held();
  if (!hw.im || !hw.h) {
    if (hw.st.util) /* nothing ran on the devices: the header alone */
      fclose(hw.st.util);
    return;
  }
  hw.st.cycles_end = cycles_of(hw.im->threads[0].addr);
  hw.st.ss = op2t_calloc(hw.im->nthreads + 1, sizeof(ss_stats));
  thread_stats(SS_KEY_STATS, hw.st.ss);
  hw.st.thread_addr = op2t_calloc(hw.im->nthreads + 1, sizeof(uint32_t));
  hw.st.thread_devices = op2t_calloc(hw.im->nthreads + 1, sizeof(uint32_t));
  for (uint32_t i = 0; i < hw.im->nthreads; i++) {
    hw.st.thread_addr[i] = hw.im->threads[i].addr;
    hw.st.thread_devices[i] = ((const ss_thread_image *)hw.im->threads[i].image)->num_devices;
  }
  if (!hw.no_debug && hl_sync_stdout(hw.h, stdout) < 0)
    fprintf(stderr, "op2 tinsel: the threads' last output may be incomplete: %s\n", hl_error(hw.h));
  if (!hw.no_debug)
    hl_end_stdout(hw.h, stdout);
  hl_close(hw.h);
  hw.h = NULL;
  if (hw.spawn) {
    int st = op2t_tsim_stop(&hw.tsim, 30);
    op2t_kv_read(&hw.st.tsim_stats, hw.tsim.stats);
    if (st != 0) {
      fprintf(stderr, "op2 tinsel: tsim exited with status %d at the end; the end of its output:\n", st);
      op2t_tsim_log_tail(&hw.tsim, stderr, 12);
    }
    op2t_tsim_cleanup(&hw.tsim);
  }
  hw.st.engine = hw.name;
  hw.st.config = hw.im->machine.name;
  hw.st.nboards = hw.im->machine.nboards;
  op2t_hw_report(&hw.st);
  free(hw.st.ss), free(hw.st.thread_addr), free(hw.st.thread_devices);
  op2t_kv_free(&hw.st.tsim_stats);
  op2t_images_free(hw.im);
  hw.im = NULL;
}

static void setup(const char *name, int spawn) {
  if (hw.name)
    return;
  hw.name = name;
  hw.spawn = spawn;
  const char *t = getenv("OP2_TINSEL_TIMEOUT");
  hw.timeout_s = t && *t ? atoi(t) : 600;
  if (hw.timeout_s < 1)
    hw.timeout_s = 600;
  hw.st.t0 = now();
  /* OP2_TINSEL_LOAD: preload (tsim --preload, the model only; the sim
   * engine's default) or hostlink (through the boot loader, as real boards). */
  const char *load = getenv("OP2_TINSEL_LOAD");
  if (load && *load && strcmp(load, "preload") && strcmp(load, "hostlink"))
    die("OP2_TINSEL_LOAD=%s: expected preload (tsim --preload, the sim engine only) or hostlink (the boot loader)",
        load);
  if (load && !strcmp(load, "preload") && !spawn)
    die("OP2_TINSEL_LOAD=preload is a backdoor of the model (engine sim); real boards load through the boot loader");
  hw.preload = spawn && !(load && !strcmp(load, "hostlink"));
  hw.st.load_method = hw.preload ? "preload (tsim --preload, model only)" : "hostlink (boot loader)";
  /* OP2_TINSEL_BEGIN: key (one routing-key send per invocation, default) or
   * threads (one send per involved thread). */
  const char *begin = getenv("OP2_TINSEL_BEGIN");
  if (begin && *begin && strcmp(begin, "key") && strcmp(begin, "threads"))
    die("OP2_TINSEL_BEGIN=%s: expected key (one routing-key send per invocation) or threads (one send per thread)",
        begin);
  hw.begin_by_key = !(begin && !strcmp(begin, "threads"));
  /* OP2_TINSEL_UTIL=FILE: per-thread utilisation at exit (sim_report.c);
   * opened now, so that a path that cannot be written stops the run before it. */
  const char *util = getenv("OP2_TINSEL_UTIL");
  if (util && *util && !(hw.st.util = fopen(util, "w")))
    die("OP2_TINSEL_UTIL=%s: cannot write it: %s", util, strerror(errno));
  if (hw.st.util) /* the four counts: "-" unless op2c --count-events */
    fputs("# thread\tcore\tslot\tdevices\tbusy\thandler_calls\trecv_remote\tsent_remote\tsent_local\n", hw.st.util);
  hw.st.util_path = util;
  /* A dead link must be an error message, not a silent SIGPIPE; and tsim
   * must not outlive a program that exits without op_exit. */
  signal(SIGPIPE, SIG_IGN);
  atexit(op2t_engine_finish);
}

static int run_sim(op2t_run *r) {
  setup("sim", 1);
  return run(r);
}

static int run_hostlink(op2t_run *r) {
  setup("hostlink", 0);
  return run(r);
}

static int start_sim(op2t_run *r) {
  setup("sim", 1);
  return start_streamed(r);
}

static int start_hostlink(op2t_run *r) {
  setup("hostlink", 0);
  return start_streamed(r);
}

const op2t_engine op2t_engine_sim = {
    .name = "sim",
    .what = "the cycle model: starts build/bin/tsim (OP2_TINSEL_TSIM) and drives it over HostLink",
    .run = run_sim,
    .start = start_sim,
    .wait = wait,
    .flush = flush_output,
    .holding = holding,
    .fetch = fetch,
    .push = push,
    .finish = finish,
};

const op2t_engine op2t_engine_hostlink = {
    .name = "hostlink",
    .what = "real POETS boxes over HostLink (OP2_TINSEL_HOSTLINK, OP2_TINSEL_DEBUGLINK)",
    .run = run_hostlink,
    .start = start_hostlink,
    .wait = wait,
    .flush = flush_output,
    .holding = holding,
    .fetch = fetch,
    .push = push,
    .finish = finish,
};
