// <stdlib.h> in C++ on the device: <cstdlib>, its std::abs overloads global too.
#ifndef OP2_DEV_CXX_STDLIB_H
#define OP2_DEV_CXX_STDLIB_H
#include "op2_abs.h"
using std::abs;
#endif
