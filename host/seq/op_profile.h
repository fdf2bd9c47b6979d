/* op_profile.h: OP2 apps include this name (OP2-Common's current programs
 * include <op_profile.h> after op_seq.h); the whole API is in op_seq.h. */
#include "op_seq.h"
