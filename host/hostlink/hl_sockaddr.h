/* hl_sockaddr.h: socket addresses as the host link writes them, shared by
 * libhostlink (client) and tsim (server, sim/tsim_socket.c):
 *   unix:PATH    a socket file
 *   unix:@NAME   an abstract socket (Linux), named as Tinsel names its own:
 *                NAME NUL-padded to the whole of sun_path, the address
 *                length sizeof(struct sockaddr_un), so unix:@pciestream is
 *                the socket pciestreamd serves on a POETS box and
 *                unix:@tinsel.b-1.1 the one Tinsel's simulator serves
 *   HOST:PORT    TCP (only where the caller allows it: DebugLink to boardctrld)
 */
#ifndef HL_SOCKADDR_H
#define HL_SOCKADDR_H

#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

/* 1 when SPEC starts with "unix:". */
int hl_is_unix_addr(const char *spec);

/* Fills *SA and *LEN from "unix:PATH" or "unix:@NAME". 0, or -1 with why
 * (naming SPEC and the limit) in ERR. */
int hl_unix_addr(const char *spec, struct sockaddr_un *sa, socklen_t *len, char *err, size_t errlen);

#endif
