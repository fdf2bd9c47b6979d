// device_calls.h: what kernels call, against what the device has.
#ifndef DEVICE_CALLS_H
#define DEVICE_CALLS_H
#include "../../op2c.h"

// Reports, at the call, each function a kernel (or a function of the
// program it calls) calls that has no device implementation: neither the
// program's nor in firmware/include/op2_device_fns.def. False if any.
bool device_check_calls(const Program *prog);
// Whether a kernel (or a function of the program it calls) may print:
// calls printf, puts, putchar or another stdio output function.
bool device_prints(const Program *prog);
#endif
