// assert.h: a failed assert prints the thread id, file, line and
// expression to the debug link and stops the thread (firmware/lib/assert.c).
#ifndef FW_ASSERT_H
#define FW_ASSERT_H
void fw_assert_fail(const char *file, int line, const char *expr) __attribute__((noreturn));
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : fw_assert_fail(__FILE__, __LINE__, #e))
#endif
#endif
