/* tsim_hostlink.c: the board's inter-board links seen from the harness,
   and the host link on board 0's West link (tsim_hostlink.h).

   Host -> board: a 16-byte header {dest, NM, (flits - 1) << 24, key}, then
   NM + 1 messages of `flits` flits (HostLink sends NM = 0). A non-zero key,
   or dest with the routing-key bit, makes a keyed send; tsim_hlframe.c
   decodes the frames and refuses a header the model cannot obey (a thread
   outside the run, a key with no beats). Messages enter the
   West link one at a time with back-pressure: the socket is only read
   while the buffer has room, so nothing is lost. Board -> host: every
   message that leaves through the West link is written padded to
   BytesPerMsg bytes. Socket I/O is done every IO_EVERY cycles, and at once
   whenever the board goes quiet (then tsim blocks in poll() until the host
   writes or closes, instead of clocking an idle model). */
#define _GNU_SOURCE
#include "tsim_hostlink.h"

#include "Vtsim_top__Dpi.h"
#include "tinsel_config.h"
#include "tsim_boards.h"
#include "tsim_debuglink.h"
#include "tsim_hlframe.h"
#include "tsim_links.h"
#include "tsim_mbox.h"
#include "tsim_run.h"
#include "tsim_socket.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { HDR = 16, MSG_BYTES = TinselBytesPerMsg, FLIT_BYTES = TinselBytesPerFlit };
enum { IN_CAP = 1 << 16, OUT_CAP = 1 << 16, IO_EVERY = 64 };
/* Cycles without activity after which the board counts as waiting for the
   host: longer than any latency in the model (a link's MacLatency, a DRAM
   access), so something still on its way always shows up first. */
enum { QUIET_CYCLES = 1024 };

static const char *const link_name[TSIM_LINKS] = {"North", "South", "East", "West"};

static struct {
  const char *spec;
  int listen_fd, fd;
  unsigned char in[IN_CAP];
  size_t in_len;
  unsigned char out[OUT_CAP];
  size_t out_len;
  /* The frames from the host: the header being obeyed (tsim_hlframe.h). */
  TsimHlDecoder dec;
  int broken;   /* a header it cannot obey: nothing more is taken */
  /* The message on the West input, if any. */
  int have;
  uint32_t have_dest, have_msg;
  unsigned have_len;
  unsigned long long last_active, quiet_cycles, waits;
  double waited_secs;
  unsigned long long to_board_msgs, to_board_flits, to_host_msgs, to_host_flits;
  long long inflight;
  unsigned long long link_in_flits[TSIM_MAX_BOARDS][TSIM_LINKS], link_out_flits[TSIM_MAX_BOARDS][TSIM_LINKS];
} hl = { .listen_fd = -1, .fd = -1 };

int tsim_hostlink_start(const TsimArgs *a) {
  char err[256];
  if (!a->hostlink) return 0;
  hl.spec = a->hostlink;
  hl.quiet_cycles = QUIET_CYCLES + (a->delay_on ? a->delay_max : 0);
  hl.listen_fd = tsim_listen(a->hostlink, err, sizeof err);
  if (hl.listen_fd < 0) {
    fprintf(stderr, "tsim: hostlink: %s\n", err);
    return TSIM_EXIT_INPUT;
  }
  if (a->debuglink && tsim_debuglink_listen(a->debuglink)) {
    tsim_unlisten(hl.spec, hl.listen_fd);
    return TSIM_EXIT_INPUT;
  }
  fprintf(stderr, "tsim: hostlink: listening on %s\n", a->hostlink);
  hl.fd = tsim_accept(hl.listen_fd, 1);
  if (hl.fd < 0) {
    fprintf(stderr, "tsim: hostlink: %s: accept: %s\n", a->hostlink, strerror(errno));
    return TSIM_EXIT_INPUT;
  }
  return 0;
}

/* ------------------------------------------------------------ the wire */

static void protocol_error(const char *what) {
  hl.broken = 1;
  fprintf(stderr, "tsim: hostlink: protocol error from the host: %s\n", what);
  tsim_stop = TSIM_STOP_HALT;
}

/* Take the next complete message from the input buffer onto the West input. */
static void next_from_host(void) {
  if (hl.broken) return;   /* said once; the run stops */
  TsimHlRange range = { tsim_boards_x(), tsim_boards() / tsim_boards_x() };
  TsimHlMsg m;
  size_t used;
  char err[512];
  int rc = tsim_hl_decode(&hl.dec, &range, hl.in, hl.in_len, &used, &m, err, sizeof err);
  if (rc < 0) {
    protocol_error(err);
    return;
  }
  memmove(hl.in, hl.in + used, hl.in_len - used);
  hl.in_len -= used;
  if (!rc) return;
  hl.have_dest = m.mbox;
  hl.have_msg = tsim_mbox_inject(m.flits, m.words, m.mask);
  hl.inflight += 1;   /* one destination thread, or one keyed message (as mbox.sv counts a Send) */
  hl.have_len = m.flits - 1;
  hl.have = 1;
}

static void to_host(uint32_t msg, unsigned len) {
  const uint32_t *w = tsim_mbox_words(msg);
  unsigned char *o = hl.out + hl.out_len;
  for (unsigned i = 0; i < MSG_BYTES / 4; i++) {
    o[4 * i] = (unsigned char)w[i];
    o[4 * i + 1] = (unsigned char)(w[i] >> 8);
    o[4 * i + 2] = (unsigned char)(w[i] >> 16);
    o[4 * i + 3] = (unsigned char)(w[i] >> 24);
  }
  hl.out_len += MSG_BYTES;
  hl.inflight -= __builtin_popcountll(tsim_mbox_mask(msg));
  hl.to_host_msgs++;
  hl.to_host_flits += len + 1;
  tsim_mbox_drop(msg);
}

/* A message left board B through a link nothing is connected to. */
static void dead_link(unsigned b, int d, uint32_t dest, uint32_t msg) {
  char who[64];
  uint32_t above = dest >> TinselLogMailboxesPerBoard;
  unsigned bx = above & ((1u << TinselMeshXBits) - 1), by = (above >> TinselMeshXBits) & ((1u << TinselMeshYBits) - 1);
  tsim_mbox_describe_src(msg, who, sizeof who);
  if (above >> (TinselMeshXBits + TinselMeshYBits) & 2)
    fprintf(stderr, "tsim: %s: mailbox: message to the host (mailbox address 0x%x), but no host is connected "
            "(tsim --hostlink)\n", who, dest);
  else
    fprintf(stderr, "tsim: %s: mailbox: message to board (%u, %u) (mailbox address 0x%x) left board %u through its %s "
            "link, which has nothing behind it (%s)\n", who, bx, by, dest, b, link_name[d],
            tsim_boards() == 1 ? "this model is one board" : "the model does not join its boards' links");
  tsim_mbox_drop(msg);
  tsim_stop = TSIM_STOP_HALT;
}

/* ------------------------------------------------------------ socket I/O */

static void host_io(void) {
  if (hl.fd < 0) return;
  if (hl.out_len) {
    long w = tsim_write_some(hl.fd, hl.out, hl.out_len);
    if (w < 0) {
      fprintf(stderr, "tsim: hostlink: the host went away\n");
      tsim_stop = TSIM_STOP_HOST_CLOSED;
      return;
    }
    memmove(hl.out, hl.out + w, hl.out_len - (size_t)w);
    hl.out_len -= (size_t)w;
  }
  long n = tsim_read_some(hl.fd, hl.in + hl.in_len, IN_CAP - hl.in_len);
  if (n < 0) {
    if (!tsim_stop) {   /* the host closed the link: the run ends; what it sent and the board did not take is said */
      char what[600];
      int left = tsim_hl_leftover(&hl.dec, hl.in, hl.in_len, what, sizeof what);
      if (left)
        fprintf(stderr, "tsim: hostlink: %s: %s\n", left > 1 ? "error" : "warning", what);
      tsim_stop = left > 1 ? TSIM_STOP_HALT : TSIM_STOP_HOST_CLOSED;
    }
    return;
  }
  hl.in_len += (size_t)n;
}

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The board is quiet and the host has sent nothing it can take: write what
   is pending and sleep until the host (or the DebugLink) has something. */
static void wait_for_host(void) {
  double t0 = wall_now();
  hl.waits++;
  for (;;) {
    struct pollfd p[2];
    int n = 0;
    p[n].fd = hl.fd;
    p[n].events = (short)((hl.in_len < IN_CAP ? POLLIN : 0) | (hl.out_len ? POLLOUT : 0));
    p[n++].revents = 0;
    n += tsim_debuglink_pollfd(&p[n]);
    if (poll(p, (nfds_t)n, -1) < 0 && errno != EINTR) break;
    size_t had = hl.in_len;
    host_io();
    tsim_debuglink_io();
    if (tsim_stop || hl.in_len != had || (n > 1 && (p[1].revents & POLLIN))) break;
    if (p[0].revents & (POLLHUP | POLLERR)) { host_io(); break; }
  }
  hl.waited_secs += wall_now() - t0;
}

long long tsim_hostlink_inflight(void) { return hl.inflight; }

int tsim_links_cycle(TsimLinkIO *ios, unsigned nb, unsigned long long cycle, int active) {
  int waited = 0;
  for (unsigned b = 0; b < nb && b < TSIM_MAX_BOARDS; b++) {
    TsimLinkIO *l = &ios[b];
    for (int d = 0; d < TSIM_LINKS; d++) {
      unsigned out_len = l->out_lens >> (d * TinselLogMaxFlitsPerMsg) & (TinselMaxFlitsPerMsg - 1);
      unsigned in_len = l->in_lens >> (d * TinselLogMaxFlitsPerMsg) & (TinselMaxFlitsPerMsg - 1);
      if (l->out_taken >> d & 1) {
        hl.link_out_flits[b][d] += out_len + 1;
        if (b == 0 && d == TSIM_LINK_W && hl.fd >= 0) to_host(l->out_msg[d], out_len);
        else dead_link(b, d, l->out_dest[d], l->out_msg[d]);
      }
      if (l->in_taken >> d & 1) hl.link_in_flits[b][d] += in_len + 1;
    }
    l->in_valid = 0;
    l->out_ready = 0xf;   /* dead links take messages (to report them) */
  }
  TsimLinkIO *io = &ios[0];   /* the host is on board 0's West link */
  if (io->in_taken >> TSIM_LINK_W & 1) {
    hl.have = 0;
    hl.to_board_msgs++;
    hl.to_board_flits += hl.have_len + 1;
  }
  if (hl.fd >= 0) {
    if (active) hl.last_active = cycle;
    if (cycle % IO_EVERY == 0) {
      host_io();
      tsim_debuglink_io();
    }
    if (!hl.have) next_from_host();
    if (!hl.have && !tsim_stop && cycle - hl.last_active >= hl.quiet_cycles) {
      wait_for_host();
      hl.last_active = cycle;
      waited = 1;
      if (!hl.have) next_from_host();
    }
  }
  io->in_valid = hl.have ? 1u << TSIM_LINK_W : 0;
  io->in_dest[TSIM_LINK_W] = hl.have_dest;
  io->in_lens = hl.have_len << (TSIM_LINK_W * TinselLogMaxFlitsPerMsg);
  io->in_msg[TSIM_LINK_W] = hl.have_msg;
  /* The host's link takes a message when the output buffer has room for it. */
  io->out_ready = 0xfu & ~(hl.fd >= 0 && hl.out_len + MSG_BYTES > OUT_CAP ? 1u << TSIM_LINK_W : 0);
  return waited;
}

void tsim_hostlink_finish(void) {
  if (!hl.spec) return;
  /* Whatever the board sent before the end reaches the host (if it still reads). */
  for (int tries = 0; hl.fd >= 0 && hl.out_len && tries < 100; tries++) {
    struct pollfd p = { .fd = hl.fd, .events = POLLOUT };
    if (poll(&p, 1, 10) < 0) break;
    long w = tsim_write_some(hl.fd, hl.out, hl.out_len);
    if (w < 0) break;
    memmove(hl.out, hl.out + w, hl.out_len - (size_t)w);
    hl.out_len -= (size_t)w;
  }
  tsim_debuglink_close();
  if (hl.fd >= 0) close(hl.fd);
  hl.fd = -1;
  tsim_unlisten(hl.spec, hl.listen_fd);
  hl.listen_fd = -1;
}

void tsim_hostlink_stats_reduce(void (*or)(void *buf, size_t bytes)) {
  or(hl.link_in_flits, sizeof hl.link_in_flits);
  or(hl.link_out_flits, sizeof hl.link_out_flits);
}

void tsim_hostlink_print_stats(void) {
  if (hl.spec)
    fprintf(stderr, "tsim: host link: host->board messages %llu flits %llu, board->host messages %llu flits %llu; "
            "waited for the host %llu times, %.2f s\n", hl.to_board_msgs, hl.to_board_flits, hl.to_host_msgs,
            hl.to_host_flits, hl.waits, hl.waited_secs);
  for (unsigned b = 0; b < tsim_boards() && b < TSIM_MAX_BOARDS; b++)
    for (int d = 0; d < TSIM_LINKS; d++)
      if (hl.link_in_flits[b][d] || hl.link_out_flits[b][d])
        fprintf(stderr, "tsim: %slink %s: flits in %llu out %llu\n", tsim_board_prefix(b), link_name[d],
                hl.link_in_flits[b][d], hl.link_out_flits[b][d]);
}

void tsim_hostlink_stats_file(FILE *f) {
  fprintf(f, "host.to-board.messages %llu\nhost.to-board.flits %llu\n", hl.to_board_msgs, hl.to_board_flits);
  fprintf(f, "host.to-host.messages %llu\nhost.to-host.flits %llu\n", hl.to_host_msgs, hl.to_host_flits);
  fprintf(f, "host.waits %llu\nhost.waited-seconds %.3f\n", hl.waits, hl.waited_secs);
  /* Board 0's links as link.D.*; other boards' as board.B.link.D.*: the
     host link and unjoined sides counted here, links to a neighbour by
     tsim_links.c. */
  for (unsigned b = 0; b < tsim_boards() && b < TSIM_MAX_BOARDS; b++)
    for (int d = 0; d < TSIM_LINKS; d++) {
      char pre[32] = "";
      if (b) snprintf(pre, sizeof pre, "board.%u.", b);
      fprintf(f, "%slink.%c.in.flits %llu\n%slink.%c.out.flits %llu\n", pre, "NSEW"[d],
              hl.link_in_flits[b][d] + tsim_links_flits(b, (unsigned)d, 1), pre, "NSEW"[d],
              hl.link_out_flits[b][d] + tsim_links_flits(b, (unsigned)d, 0));
    }
}
