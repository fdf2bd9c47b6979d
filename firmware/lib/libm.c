// libm.c: sqrtf in software (fw_sqrtf), since real Tinsel lacks fsqrt.s.
#include <math.h>
#include "fwlib.h"

float sqrtf(float x) { return fw_sqrtf(x); }
