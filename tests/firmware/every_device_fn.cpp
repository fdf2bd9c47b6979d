// every_device_fn.cpp: a call of every entry of the one list of what kernels
// may call on the device (firmware/include/op2_device_fns.def), with its
// sample arguments, through the device's C++ headers: globally and as
// std:: where the list says so. tests/firmware/run.sh compiles it, links it
// with firmware/lib and picolibc as op2c links an image, and runs checkelf:
// every listed function exists and runs on real Tinsel.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static char buf_[16];
#define CALL_ANY(name, args) (void)::name args; (void)std::name args;
#define CALL_CXX(name, args) CALL_ANY(name, args)
#define CALL_STD(name, args) (void)std::name args;
#define OP2_DEVICE_FN(name, where, args) CALL_##where(name, args)

extern "C" void op2_every_device_fn(void) {
#include "op2_device_fns.def"
}
