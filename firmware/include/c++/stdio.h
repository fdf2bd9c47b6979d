// <stdio.h> in C++ on the device: <cstdio>.
#include <cstdio>
