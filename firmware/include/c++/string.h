// <string.h> in C++ on the device: <cstring>.
#include <cstring>
