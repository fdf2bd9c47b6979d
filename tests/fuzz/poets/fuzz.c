/* tests/fuzz/poets: poets_check (compiler/tools/poets_check.c), the
 * project's reader of POETS graph XML, on any bytes: libxml2's parse, then
 * its rules (types and arrays in declarations, positional initialisers,
 * required elements, types, pins and edges of the instance), once with
 * libxml2's tree and once with its streaming reader (--stream). The first
 * byte's low bit is --type-only. Whatever the input, the answer is 0 (the
 * file keeps the rules), 1 (it does not) or 2 (not XML), and the two
 * readers give the same answer. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

int poets_check_buffer(const char *name, const char *data, int size, bool type_only);
int poets_check_buffer_stream(const char *name, const char *data, int size, bool type_only);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > (1 << 20))
    return 0;
  bool type_only = data[0] & 1;
  int tree = poets_check_buffer("fuzz.xml", (const char *)data + 1, (int)size - 1, type_only);
  int stream = poets_check_buffer_stream("fuzz.xml", (const char *)data + 1, (int)size - 1, type_only);
  if (tree < 0 || tree > 2 || stream != tree)
    abort();
  return 0;
}
