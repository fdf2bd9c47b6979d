// A header that includes itself without a guard.
#include "pp_include_depth.cpp"
