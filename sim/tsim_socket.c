/* tsim_socket.c: listening, accepting and non-blocking I/O on the local
   sockets tsim serves (tsim_socket.h). */
#define _GNU_SOURCE
#include "tsim_socket.h"

#include "hl_sockaddr.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdlib.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* HOST:PORT (HOST empty: 127.0.0.1, loopback only), as boardctrld serves
   the DebugLink on port 10101. */
static int listen_tcp(const char *spec, char *err, size_t errlen) {
  const char *colon = strrchr(spec, ':');
  char host[256], *end;
  long port = colon ? strtol(colon + 1, &end, 10) : -1;
  if (!colon || !colon[1] || *end || port < 1 || port > 65535 || (size_t)(colon - spec) >= sizeof host) {
    snprintf(err, errlen, "%s: not an address (want unix:PATH, unix:@NAME or HOST:PORT with a port 1..65535)", spec);
    return -1;
  }
  memcpy(host, spec, (size_t)(colon - spec));
  host[colon - spec] = 0;
  struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV }, *res;
  int g = getaddrinfo(host[0] ? host : "127.0.0.1", colon + 1, &hints, &res);
  if (g) {
    snprintf(err, errlen, "%s: %s", spec, gai_strerror(g));
    return -1;
  }
  int fd = -1, e = 0, one = 1;
  for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) { e = errno; continue; }
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 1)) {
      e = errno;
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(res);
  if (fd < 0) snprintf(err, errlen, "%s: cannot listen: %s", spec, strerror(e));
  return fd;
}

int tsim_listen(const char *spec, char *err, size_t errlen) {
  struct sockaddr_un sa;
  socklen_t len;
  if (!hl_is_unix_addr(spec)) return listen_tcp(spec, err, errlen);
  if (hl_unix_addr(spec, &sa, &len, err, errlen)) return -1;
  struct stat st;
  /* A socket file left by an earlier run: replace it (never any other file). */
  if (sa.sun_path[0] && stat(sa.sun_path, &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      snprintf(err, errlen, "%s: the path exists and is not a socket", spec);
      return -1;
    }
    unlink(sa.sun_path);
  }
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || bind(fd, (struct sockaddr *)&sa, len) || listen(fd, 1)) {
    snprintf(err, errlen, "%s: cannot listen: %s", spec, strerror(errno));
    if (fd >= 0) close(fd);
    return -1;
  }
  return fd;
}

int tsim_accept(int listen_fd, int wait) {
  int fd;
  /* accept() blocks on a blocking listening socket whatever the flags: look first. */
  struct pollfd p = { .fd = listen_fd, .events = POLLIN };
  if (!wait && poll(&p, 1, 0) <= 0) return -1;
  do fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC | (wait ? 0 : SOCK_NONBLOCK));
  while (fd < 0 && errno == EINTR);
  if (fd >= 0 && wait) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  return fd;
}

long tsim_write_some(int fd, const void *buf, size_t len) {
  ssize_t n;
  do n = send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
  while (n < 0 && errno == EINTR);
  if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
  return (long)n;
}

long tsim_read_some(int fd, void *buf, size_t len) {
  ssize_t n;
  if (len == 0) return 0;
  do n = recv(fd, buf, len, MSG_DONTWAIT);
  while (n < 0 && errno == EINTR);
  if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
  return n == 0 ? -1 : (long)n;
}

void tsim_unlisten(const char *spec, int listen_fd) {
  struct sockaddr_un sa;
  socklen_t len;
  char err[160];
  if (listen_fd >= 0) close(listen_fd);
  if (hl_is_unix_addr(spec) && !hl_unix_addr(spec, &sa, &len, err, sizeof err) && sa.sun_path[0]) unlink(sa.sun_path);
}
