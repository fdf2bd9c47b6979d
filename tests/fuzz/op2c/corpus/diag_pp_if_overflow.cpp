// #if arithmetic is checked: LLONG_MIN / -1 overflows (it was SIGFPE).
#if (-9223372036854775807 - 1) / -1
#endif
