// stdio.h: output to the debug link (DebugLink StdOut, one byte per
// tinselUartTryPut), for firmware. printf is firmware/lib/format.c's
// integer-only formatter: no %f.
//
// Two putses: the symbol puts is Tinsel's (io.h: no newline), because
// objects built against Tinsel's own headers call it by that name. A file
// that includes this header asked for C's, which adds the newline, so here
// puts names fw_puts_line from this point on.
#ifndef FW_STDIO_H
#define FW_STDIO_H
#include <stdarg.h>
#include "io.h"

#ifdef __cplusplus
extern "C" {
#endif

int vprintf(const char *fmt, va_list ap);
int fw_puts_line(const char *s);   // C's puts: s, then a newline
#define puts fw_puts_line

#ifdef __cplusplus
}
#endif

#endif
