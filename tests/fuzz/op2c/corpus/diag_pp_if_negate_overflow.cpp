// Negating LLONG_MIN overflows.
#if -(-9223372036854775807 - 1)
#endif
