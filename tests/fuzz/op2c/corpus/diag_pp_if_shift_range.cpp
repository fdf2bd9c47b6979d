// A shift by 64 or more, or by a negative count, is undefined in C.
#if 1 << 64
#endif
