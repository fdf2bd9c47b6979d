/* tests/fuzz/boxaddr: libhostlink's parsers of box names and of the map
 * from box names to boardctrld addresses (host/hostlink/hl_boxaddr.c), as
 * hl_open_cluster uses them. The first byte picks the output size (1..64);
 * the rest is NAME, a NUL, then MAP. Whatever they are, the answer is 0 or
 * -1; on 0 the output is a NUL-terminated string that fits, a box name is
 * lower case without a '.', an address has a ':'; on -1 the error is a
 * string. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hostlink.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  size_t outlen = 1 + data[0] % 64;
  char *in = malloc(size);   /* NAME NUL MAP NUL */
  if (!in) return 0;
  memcpy(in, data + 1, size - 1);
  in[size - 1] = 0;
  const char *name = in, *nul = memchr(in, 0, size - 1), *map = NULL;
  if (nul && nul + 1 < in + size) map = nul + 1;   /* no second part: no map */
  char out[80], box[80], err[256];
  memset(out, 'X', sizeof out);
  err[0] = 0;
  int r = hl_box_name(name, out, outlen, err, sizeof err);
  if (r != 0 && r != -1) abort();
  if (r == 0) {
    size_t n = strnlen(out, outlen);
    if (n == outlen || n == 0 || strchr(out, '.')) abort();
    for (size_t i = 0; i < n; i++)
      if (out[i] >= 'A' && out[i] <= 'Z') abort();
    memcpy(box, out, n + 1);
    r = hl_box_lookup(map, box, out, outlen, err, sizeof err);
    if (r != 0 && r != -1) abort();
    if (r == 0 && (strnlen(out, outlen) == outlen || !strchr(out, ':'))) abort();
  }
  if (r == -1 && strnlen(err, sizeof err) == sizeof err) abort();
  free(in);
  return 0;
}
