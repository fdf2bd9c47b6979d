#include "op_seq.h"
#ifdef DEBUG
int debug = 1;
