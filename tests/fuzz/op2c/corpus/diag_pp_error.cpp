#if !defined(NDIM)
#error NDIM must be defined
#endif
