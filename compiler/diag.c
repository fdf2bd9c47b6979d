// diag.c: diagnostics in the form
//
//   file:line:col: error: message
//      12 |   op_par_loop(res_calc, "res_calc", edges,
//         |               ^
//
// Errors are counted and compilation goes on so that one run reports
// several; main.c stops before code generation when any were reported.
#include "op2c.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int diag_errors;
int diag_max_errors = 20;
FILE *diag_stream;
jmp_buf *diag_fatal_jump;

// Where diagnostics go: stderr unless diag_stream says otherwise.
static FILE *out(void) { return diag_stream ? diag_stream : stderr; }

// Stops the translation unit: exits, or jumps back to a caller that runs the
// front end again (diag_fatal_jump).
static _Noreturn void stop(void) {
  if (diag_fatal_jump)
    longjmp(*diag_fatal_jump, 1);
  exit(1);
}

static void show_line(const Token *tok) {
  if (!tok->file || !tok->file->contents)
    return;
  char *start = tok->file->contents;
  for (int line = 1; line < tok->line && *start; start++)
    if (*start == '\n')
      line++;
  char *end = start;
  while (*end && *end != '\n')
    end++;
  fprintf(out(), "%5d | %.*s\n      | ", tok->line, (int)(end - start), start);
  for (int i = 0; i < tok->col - 1 && start + i < end; i++)
    fputc(start[i] == '\t' ? '\t' : ' ', out());
  fprintf(out(), "^\n");
}

static void vreport(const Token *tok, const char *kind, const char *fmt, va_list ap) {
  if (!tok) {
    fprintf(out(), "op2c: %s: ", kind);
    vfprintf(out(), fmt, ap);
    fprintf(out(), "\n");
    return;
  }
  fprintf(out(), "%s:%d:%d: %s: ", file_display_name(tok->file), tok->line, tok->col, kind);
  vfprintf(out(), fmt, ap);
  fprintf(out(), "\n");
  show_line(tok);
}

void diag_check_limit(void) {
  if (diag_errors >= diag_max_errors) {
    fprintf(out(), "op2c: too many errors (%d), stopping\n", diag_errors);
    stop();
  }
}

void error_tok(const Token *tok, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(tok, "error", fmt, ap);
  va_end(ap);
  diag_errors++;
  diag_check_limit();
}

void note_tok(const Token *tok, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(tok, "note", fmt, ap);
  va_end(ap);
}

void warn_tok(const Token *tok, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(tok, "warning", fmt, ap);
  va_end(ap);
}

void fatal_tok(const Token *tok, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(tok, "error", fmt, ap);
  va_end(ap);
  stop();
}

void error_plain(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(out(), "op2c: error: ");
  vfprintf(out(), fmt, ap);
  fprintf(out(), "\n");
  va_end(ap);
  diag_errors++;
}
