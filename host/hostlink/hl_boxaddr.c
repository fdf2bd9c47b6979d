/* hl_boxaddr.c: box names and where their boardctrld listens (hostlink.h
 * hl_box_name, hl_box_lookup), for hl_open_cluster (hl_cluster.c). No
 * other dependency, so tests/fuzz/boxaddr fuzzes it alone. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "hostlink.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

enum { BOARDCTRLD_PORT = 10101 };   /* Tinsel's boardctrld */

int hl_box_name(const char *name, char *out, size_t outlen, char *err, size_t errlen) {
  size_t n = 0;
  if (!name || !outlen) {
    snprintf(err, errlen, "box name: none given");
    return -1;
  }
  for (; name[n] && name[n] != '.'; n++) {
    if (n + 1 >= outlen) {
      snprintf(err, errlen, "box name \"%.40s...\": longer than %zu bytes", name, outlen - 1);
      return -1;
    }
    out[n] = (char)tolower((unsigned char)name[n]);
  }
  out[n] = 0;
  if (!n) {
    snprintf(err, errlen, "box name \"%s\": empty", name);
    return -1;
  }
  return 0;
}

int hl_box_lookup(const char *map, const char *name, char *out, size_t outlen, char *err, size_t errlen) {
  size_t nlen = strlen(name);
  /* MAP: entries NAME=HOST:PORT separated by commas (spaces allowed around). */
  for (const char *p = map; p && *p;) {
    while (*p == ' ' || *p == ',') p++;
    if (!*p) break;
    const char *end = strchr(p, ','), *eq = memchr(p, '=', end ? (size_t)(end - p) : strlen(p));
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (!eq || eq == p || eq + 1 == p + len) {
      snprintf(err, errlen, "box addresses \"%s\": entry \"%.*s\" is not NAME=HOST:PORT", map, (int)(len > 60 ? 60 : len),
               p);
      return -1;
    }
    size_t klen = (size_t)(eq - p), vlen = len - klen - 1;
    while (klen && p[klen - 1] == ' ') klen--;
    while (vlen && eq[vlen] == ' ') vlen--;
    const char *v = eq + 1;
    while (vlen && *v == ' ') v++, vlen--;
    if (klen == nlen && !strncasecmp(p, name, nlen)) {
      if (!vlen || !memchr(v, ':', vlen)) {
        snprintf(err, errlen, "box addresses: %s=%.*s: want HOST:PORT", name, (int)(vlen > 60 ? 60 : vlen), v);
        return -1;
      }
      if (vlen >= outlen) {
        snprintf(err, errlen, "box addresses: the address of %s is %zu bytes; at most %zu", name, vlen, outlen - 1);
        return -1;
      }
      memcpy(out, v, vlen);
      out[vlen] = 0;
      return 0;
    }
    p += len;
  }
  if ((size_t)snprintf(out, outlen, "%s:%d", name, BOARDCTRLD_PORT) >= outlen) {
    snprintf(err, errlen, "box %s: the address %s:%d is longer than %zu bytes", name, name, BOARDCTRLD_PORT, outlen - 1);
    return -1;
  }
  return 0;
}
