#include "op_seq.h"
