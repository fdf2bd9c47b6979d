#include "op_seq.h"
const char *s = "abc;
