// string.h: the firmware's memory and string functions (firmware/lib/string.c).
#ifndef FW_STRING_H
#define FW_STRING_H
#include <stddef.h>
#include <stdint.h>
void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
#endif
