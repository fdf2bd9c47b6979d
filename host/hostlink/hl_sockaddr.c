/* hl_sockaddr.c: "unix:PATH" and "unix:@NAME" to a sockaddr_un (hl_sockaddr.h). */
#include "hl_sockaddr.h"

#include <stdio.h>
#include <string.h>

int hl_is_unix_addr(const char *spec) { return spec && !strncmp(spec, "unix:", 5); }

int hl_unix_addr(const char *spec, struct sockaddr_un *sa, socklen_t *len, char *err, size_t errlen) {
  if (!hl_is_unix_addr(spec)) {
    snprintf(err, errlen, "%s: not a local socket address (want unix:PATH or unix:@NAME)", spec ? spec : "(null)");
    return -1;
  }
  const char *name = spec + 5;
  int abstract = name[0] == '@';
  size_t n = strlen(name);  /* for an abstract name: '@' becomes the leading NUL */
  memset(sa, 0, sizeof *sa);
  sa->sun_family = AF_UNIX;
  if (n == (size_t)abstract) {
    snprintf(err, errlen, "%s: empty socket name", spec);
    return -1;
  }
  if (n >= sizeof sa->sun_path) {
    snprintf(err, errlen, "%s: socket name is %zu bytes; at most %zu fit", spec, n, sizeof sa->sun_path - 1);
    return -1;
  }
  memcpy(sa->sun_path, name, n);
  if (abstract) sa->sun_path[0] = 0;
  /* An abstract name is the whole of sun_path, NUL-padded, as Tinsel's
     pciestreamd binds "pciestream" and HostLink connects to it (tinsel.md
     §11): the exact-length name would be another address. */
  *len = abstract ? (socklen_t)sizeof *sa : (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1);
  return 0;
}
