// A constant that no integer type holds.
#if 99999999999999999999 > 0
#endif
