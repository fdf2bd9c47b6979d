/* op_types.c: the type strings OP2 accepts and their element sizes. */
#include <stdbool.h>
#include <string.h>

#include "op_internal.h"

static const struct {
  const char *name;
  int size;
} types[] = {
  {"double", sizeof(double)},
  {"float", sizeof(float)},
  {"int", sizeof(int)},
  {"uint", sizeof(unsigned int)},
  {"ll", sizeof(long long)},
  {"ull", sizeof(unsigned long long)},
  {"bool", sizeof(bool)},
};

int op_type_size(const char *type) {
  if (!type)
    return 0;
  for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
    if (strcmp(type, types[i].name) == 0)
      return types[i].size;
  return 0;
}

int op_type_size_or_die(const char *type, const char *where) {
  int size = op_type_size(type);
  if (size == 0)
    op_fatal("%s: unknown type \"%s\" (expected double, float, int, uint, ll, ull or bool)",
             where, type ? type : "(null)");
  return size;
}
