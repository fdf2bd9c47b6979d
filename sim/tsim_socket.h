/* tsim_socket.h: the local sockets tsim serves (--hostlink, --debuglink). */
#ifndef TSIM_SOCKET_H
#define TSIM_SOCKET_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Listen on SPEC ("unix:PATH" or "unix:@NAME"; a stale socket file at PATH
   is replaced; or, where the caller allows it, TCP "HOST:PORT", HOST empty
   meaning 127.0.0.1). The listening fd, or -1 with why in ERR. */
int tsim_listen(const char *spec, char *err, size_t errlen);

/* Accept one client on LISTEN_FD (blocking when WAIT, else -1 at once if
   none is waiting); the client fd, non-blocking. */
int tsim_accept(int listen_fd, int wait);

/* Write LEN bytes of BUF without blocking; the bytes written (0 when the
   socket is full), or -1 when the peer has gone. */
long tsim_write_some(int fd, const void *buf, size_t len);

/* Read up to LEN bytes without blocking: the bytes read, 0 when none are
   waiting, -1 at end of stream or on error. */
long tsim_read_some(int fd, void *buf, size_t len);

/* Remove the socket file of SPEC (nothing for an abstract name). */
void tsim_unlisten(const char *spec, int listen_fd);

#ifdef __cplusplus
}
#endif
#endif
