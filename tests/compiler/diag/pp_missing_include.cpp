#include "op_seq.h"
#include "no_such_kernel.h"
