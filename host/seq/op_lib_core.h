/* op_lib_core.h: OP2 apps include this name; the whole API is in op_seq.h. */
#include "op_seq.h"
