/*
 * op2c.h: types shared by the passes of op2c, sectioned by the file that
 * owns them. The pipeline (see main.c):
 *
 *   lex.c        source text  -> tokens
 *   preprocess.c tokens       -> tokens with local headers and macros expanded
 *   scan.c       tokens       -> Program (IR): sets, maps, dats, consts,
 *                                kernels and par-loops found in the program
 *   check.c      Program      -> diagnostics (arity, types, access, dims)
 *   ir.c         Program      -> invocation names, textual dump
 *   ir_xml.c     Program      -> XML (libxml2)
 *   backends/    Program      -> an executable (seq today; tinsel later)
 *
 * Like most compilers op2c is short-lived: it allocates and never frees.
 * Every allocation is recorded (util.c) so that a program running the front
 * end many times, the fuzz harness, can release it all with xfree_all().
 */
#ifndef OP2C_H
#define OP2C_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

//
// util.c
//

typedef struct {
  char **data;
  int len, cap;
} StrArray;

void *xcalloc(size_t n, size_t size);
// realloc and free of what xcalloc (or xrealloc of NULL) returned.
void *xrealloc(void *p, size_t size);
void xfree(void *p);
// Frees everything allocated through this file since the last call.
void xfree_all(void);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void strarray_push(StrArray *a, char *s);
char *read_file(const char *path, size_t *len);
// A source file for op2c: regular, at most OP2C_MAX_SOURCE_BYTES. NULL with
// *why saying what is wrong ("is a directory", "not a regular file", ...).
char *read_source_file(const char *path, size_t *len, const char **why);
char *dir_name(const char *path);
bool file_exists(const char *path);
// String -> pointer, for lookups that must not be linear scans. Keys are not
// copied; a value is never NULL (NULL means absent). Zero-initialise.
typedef struct {
  const char **keys;
  void **vals;
  size_t cap, len;
} StrMap;
void *strmap_get(const StrMap *m, const char *key);
void *strmap_get_n(const StrMap *m, const char *key, size_t len); // key: len bytes, no NUL needed
void strmap_put(StrMap *m, const char *key, void *val);           // replaces

_Noreturn void die(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define unreachable() die(__FILE__, __LINE__, "internal error: unreachable")

//
// lex.c
//

typedef struct File {
  char *name;     // as given, or as found through the include path
  char *contents; // NUL-terminated
  size_t len;
  int index;      // order in which files were read
  int include_depth; // 0 for a source file, 1 for a header it includes, ...
  bool has_nul;   // a NUL byte before the end: the lexer stops there with an error
} File;

typedef enum {
  TK_IDENT,   // identifiers and keywords
  TK_PUNCT,   // punctuators
  TK_STR,     // string literals
  TK_CHAR,    // character literals
  TK_NUM,     // preprocessing numbers
  TK_EOF,
} TokenKind;

typedef struct Token Token;
struct Token {
  TokenKind kind;
  Token *next;
  char *loc;     // start in the file contents (or in a macro body)
  int len;
  File *file;    // where the token is reported: the macro call site for expansions
  int line, col;
  bool at_bol;   // first token on its line
  bool has_space;
  bool from_macro; // produced by a macro expansion
  char *str;     // TK_STR: the literal's value without quotes or escapes
  void *hideset; // preprocess.c: macros that must not expand this token again
  Token *origin; // the macro-call token this one came from, if any
};

File *new_file(const char *name, char *contents, size_t len);
Token *tokenize(File *file);
bool tok_equal(const Token *tok, const char *s);
char *tok_text(const Token *tok);
Token *tok_copy(const Token *tok);
// Tokens made since preprocess() started; past lex_max_tokens (default
// OP2C_MAX_TOKENS) a fatal error.
extern long lex_tokens_made;
extern long lex_max_tokens;

//
// diag.c
//

extern int diag_errors;
extern int diag_max_errors;
extern FILE *diag_stream;        // NULL: stderr
// When set, a fatal error (or too many errors) jumps here instead of exiting.
extern jmp_buf *diag_fatal_jump;
void error_tok(const Token *tok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void note_tok(const Token *tok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void warn_tok(const Token *tok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
_Noreturn void fatal_tok(const Token *tok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void error_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_check_limit(void);

//
// preprocess.c
//

typedef struct {
  StrArray include_dirs; // -I
  StrArray defines;      // -D NAME[=VAL]
} PPOptions;

Token *preprocess(File *main_file, const PPOptions *opts);
// After preprocess: the program's own macros as #define lines.
char *pp_macro_definitions(void);
// Files read so far (main file first), for source-line display in diagnostics.
extern File **pp_files;
extern int pp_nfiles;

//
// consteval.c
//

// Evaluates the integer constant expression in [tok, end). On failure returns
// false and leaves *err_tok at the offending token and *why at the reason
// when there is more to say than "invalid" (an overflow, a shift count out
// of range, nesting past the limit), else NULL.
bool const_eval(Token *tok, Token *end, long long *val, Token **err_tok, const char **why);
// Parentheses, unary operators and ?: nested deeper than this are an error.
#define CONST_EVAL_MAX_DEPTH 256

//
// Limits on the input (docs/limits.md, op2c): each is checked before the
// value is used, and exceeding it is an error at the place in the source.
//
// Dims and map indices: sizes computed from them (dim * sizeof, summed over
// the args of a loop) stay far inside an int.
#define OP2C_MAX_DIM 65536
// op_arg_* arguments of one op_par_loop.
#define OP2C_MAX_LOOP_ARGS 1024
// Dependences --dump-schedule lists (pairs of invocations grow with the
// square of their number: 3000 loops on one dat make 18 million).
#define OP2C_MAX_SCHEDULE_DEPS (1 << 20)
// Bytes of one source file or header.
#define OP2C_MAX_SOURCE_BYTES (16 << 20)
// Nesting of #include.
#define OP2C_MAX_INCLUDE_DEPTH 200
// Macro calls nested in macro arguments, and macros one token went through.
#define OP2C_MAX_MACRO_DEPTH 256
// Tokens made (read, copied by expansion) per translation unit: bounds
// what macros and #include can make of a small input.
#define OP2C_MAX_TOKENS (2 << 20)
// Resolves identifiers (const int globals) for const_eval; may be NULL.
extern bool (*const_eval_lookup)(const Token *ident, long long *val);

//
// ir.c: the program representation
//

// Access modes: the OP2 values, with the names used in dumps.
#define ACCESS_LIST(X) X(READ, 0) X(WRITE, 1) X(RW, 2) X(INC, 3) X(MIN, 4) X(MAX, 5) X(WORK, 6)
typedef enum {
#define X(name, val) ACC_##name = val,
  ACCESS_LIST(X)
#undef X
} Access;
const char *access_name(Access acc);

// The type strings OP2 accepts for dats and globals, with their C spelling.
typedef struct {
  const char *op2;   // "double"
  const char *c;     // "double"
  int size;          // bytes
  const char *fixed; // "double"; the fixed-width spelling (int32_t, uint8_t, ...) that
                     // POETS XML declarations allow (docs/graph-type.md)
} TypeInfo;
const TypeInfo *type_lookup(const char *op2_type);

typedef struct {
  char *var;         // C variable holding the op_set
  char *ident;       // unique among the program's sets (ir_name_decls): var, or var_2, var_3, ... for
                     // the later op_decl_set calls assigned to one variable; names its device type
  char *name;        // name string given to op_decl_set, or NULL if not a literal
  char *size_expr;   // size argument as written
  Token *tok;
  int index;
} IRSet;

typedef struct {
  char *var;
  char *name;
  IRSet *from, *to;
  int dim;           // -1 when not a constant expression
  Token *tok;
  int index;
} IRMap;

typedef struct IRDat {
  char *var;
  char *ident;       // unique among the program's dats (ir_name_decls): names its state field dat_<ident>
  char *name;
  IRSet *set;
  int dim;           // -1 when not a constant expression
  char *type;        // OP2 type string
  bool temp;         // op_decl_dat_temp
  struct IRDat *overlay_of; // op_decl_dat_overlay: the dat whose storage it shares
  Token *tok;
  int index;
} IRDat;

typedef struct {
  char *name;        // the spelled name the kernels use
  int dim;
  char *type;
  char *expr;        // the data-pointer argument as written ("&gam", "qinf")
  bool file_scope;   // a variable of that name is declared outside functions (kernels can see it)
  Token *tok;
  int index;
} IRConst;

typedef struct {
  char *name;
  char *type_text;   // the parameter's type as written, without its name
  char *base;        // C base type without qualifiers ("double", "unsigned int")
  bool is_const;     // pointee is const
  int indirection;   // pointer levels plus array dimensions: 1 for T*, 2 for T** or T*[n]
  Token *tok;
} IRParam;

typedef struct IRFunc IRFunc;
struct IRFunc {
  char *name;
  IRParam *params;
  int nparams;
  char *text;        // the definition as written in the source
  Token *tok;        // the name in the definition
  Token *body;       // the opening brace
  Token *body_end;   // the closing brace
  IRFunc **helpers;  // functions defined in the program that it calls, transitively
  int nhelpers;
  IRConst **consts;  // op_decl_const globals it uses (directly or through helpers)
  int nconsts;
  bool is_kernel;    // used by at least one op_par_loop
  int index;
};

typedef enum {
  ARG_DAT,           // op_arg_dat, op_opt_arg_dat
  ARG_GBL,           // op_arg_gbl, op_opt_arg_gbl
  ARG_IDX,           // op_arg_idx
  ARG_INFO,          // op_arg_info: a value kept with the MIN/MAX global info_ref (argmin/argmax)
} ArgKind;

typedef struct {
  ArgKind kind;
  IRDat *dat;        // ARG_DAT
  IRMap *map;        // NULL for OP_ID
  int idx;           // map slot; -1 with OP_ID; -m for an m-vector arg
  int dim;
  char *type;
  Access acc;
  bool opt;          // op_opt_arg_*: the flag is decided at run time
  char *opt_expr;    // the flag expression
  bool never;        // the flag is the constant 0: the arg is never used
  char *gbl_expr;    // ARG_GBL, ARG_INFO: the data pointer as written
  IRConst *gbl_const; // ARG_GBL pointing at a registered const
  int info_ref;      // ARG_INFO: the position of its op_arg_gbl(..., OP_MIN or OP_MAX) in the loop
  Token *tok;        // the op_arg_* call
  Token *dat_tok, *idx_tok, *map_tok, *dim_tok, *type_tok, *acc_tok; // fields, for diagnostics
} IRArg;

typedef struct IRLoop {
  char *invocation;  // unique per call site: the kernel name, or kernel_N when shared
  char *kernel_name;
  IRFunc *kernel;
  char *name;        // the loop-name string
  IRSet *set;
  IRArg *args;
  int nargs;
  Token *tok;        // the op_par_loop identifier
  Token *kernel_tok;
  Token *rparen;     // closing parenthesis of the call
  int index;
  // A loop fused by --transform (transform.c): the loops whose calls it
  // runs, one per call site in source order; NULL for a loop as written.
  struct IRLoop **parts; int nparts;
} IRLoop;

typedef struct {
  File *file;        // the translation unit's main file
  bool is_cxx;
  bool uses_hdf5;    // calls op_hdf5.h (op_decl_*_hdf5, op_dump_to_hdf5, ...): link libop2_hdf5
  IRSet **sets;   int nsets;
  IRMap **maps;   int nmaps;
  IRDat **dats;   int ndats;
  IRConst **consts; int nconsts;
  IRFunc **funcs; int nfuncs;
  IRLoop **loops; int nloops;
  char *macros;      // the program's #defines (pp_macro_definitions), for code compiled apart
} Program;

#define VEC_PUSH(arr, n, item)                                                 \
  do {                                                                         \
    (arr) = xrealloc((arr), sizeof(*(arr)) * ((size_t)(n) + 1));               \
    (arr)[(n)++] = (item);                                                     \
  } while (0)

void ir_name_invocations(Program *prog);
void ir_name_decls(Program *prog);
// transform.c: op2c --transform FILE (docs/transform.md); false after errors.
bool transform_apply(Program *prog, const char *path);
// flags[f->index]: function f is a helper of a kernel (xcalloc'd).
bool *ir_helper_flags(const Program *prog);
void ir_dump(FILE *out, const Program *prog);
const char *file_display_name(const File *f);

//
// frontend.c: one source file through lex, preprocess, scan and check
//

// NULL after reporting when the file cannot be read.
Program *front_end(const char *path, const PPOptions *pp);
// Frees all the front end (and everything else) allocated, for a caller that
// runs it again in the same process; resets the error count.
void front_end_release(void);

//
// scan.c
//

Program *scan_program(File *file, Token *tok, bool is_cxx);

//
// check.c
//

void check_program(Program *prog);

//
// protocol.c: seed 000's invocation protocol
//

typedef enum { PIN_BEGIN, PIN_READ_SEND, PIN_READ_RECV, PIN_WRITE_SEND, PIN_WRITE_RECV, PIN_END } PinKind;

typedef struct {
  PinKind kind;
  IRSet *set;        // the device type with the pin; NULL for the controller's begin/end
  char *name;        // {inv}_{dat}_read_send, {inv}_arg{i}_read_recv, ...
  IRDat *dat;
  int arg;           // the arg index, -1 for begin, end and read_send
  int slots;         // map slots a vector arg covers, else 1
  Access acc;
  int bytes;         // payload of one message, -1 when unknown
  // Read pins: one message carries every dat an element reads through the
  // same map slot(s) (res_calc: p_q and p_adt of a cell in one message).
  IRDat **dats; int ndats; // read_send, read_recv: the dats carried, dats[0] == dat
  int *args; int nargs;    // read_recv: the args it lands, args[0] == arg; write_send and
                           // write_recv: the args their message carries (its write group)
} ProtoPin;

typedef struct {
  const IRLoop *loop;
  IRSet **sets; int nsets;      // involved device types, the iteration set first
  ProtoPin *pins; int npins;
  int read_recv_per_elem;       // indirect reads an iteration element waits for
  int write_send_per_elem;      // indirect writes it sends
  int begin_bytes, end_bytes;   // READ globals on begin; INC/MIN/MAX globals on end
  int nidx;                     // op_arg_idx args
} ProtoInvocation;

typedef struct {
  const Program *prog;
  ProtoInvocation **invocations; int ninvocations;
} Protocol;

// max_payload: reads of one element through one map slot share a message
// up to this many bytes.
Protocol *protocol_lower(const Program *prog, int max_payload);
void protocol_check_sizes(const Protocol *p, int max_payload);
void protocol_dump(FILE *out, const Protocol *p);
// The read_recv pin that lands arg's reads, NULL when they ride on another
// arg's message (or the arg reads nothing indirectly); and the read_send pin
// whose messages it receives.
const ProtoPin *protocol_read_recv_of(const ProtoInvocation *inv, int arg);
const ProtoPin *protocol_read_send_of(const ProtoInvocation *inv, const ProtoPin *recv);
// The write_send pin that sends arg's writes (its own, or its write
// group's, protocol.c), NULL when the arg writes nothing indirectly.
const ProtoPin *protocol_write_send_of(const ProtoInvocation *inv, int arg);
// The read_send pins of an invocation, and the bit of begin's `fresh` word
// that pin read_send answers to (its place among them).
int protocol_read_sends(const ProtoInvocation *inv);
int protocol_fresh_bit(const ProtoInvocation *inv, const ProtoPin *read_send);

//
// schedule.c: loop-chain analysis (docs/schedule.md)
//

enum { DEP_RAW = 1, DEP_WAR = 2, DEP_WAW = 4, DEP_WAW_COMMUTES = 8 }; // WAW of two INCs (MINs, MAXs)

typedef struct {
  char *name;        // the dat's variable (of the dat whose storage it uses), or the global's
  bool is_dat;
} SchedKey;

typedef struct {
  int key;
  Access acc;
  const char *where; // "direct", "MAP:IDX", "MAP:0..M-1" (a vector arg), "gbl", "info", "const"
  const char *as;    // an overlay: the dat variable the arg names, else NULL
  bool opt, never;   // op_opt_arg_*; its flag is the constant 0
} SchedAccess;

typedef struct {
  const IRLoop *loop;
  SchedAccess *accs; int naccs; // in arg order, then the consts its kernel reads
  int *keys; int nkeys;         // the keys it uses, each once, in key order
} SchedInvocation;

typedef struct {
  int from, to;      // invocations; to <= from for a loop-carried one
  int key;
  unsigned kinds;    // DEP_*
  int cycle;         // the cycle carrying it, -1 in program order
} SchedDep;

typedef struct {
  const IRFunc *func;
  int first, last;   // the invocations in it
} SchedFunc;

typedef struct {       // a for, while or do statement holding invocations
  char *keyword;
  const Token *tok, *end;  // the keyword and the last token of the statement
  const IRFunc *func;
  int first, last;
} SchedCycle;

typedef struct {
  const char *what;  // "reads", "writes", "may-write", "declares", "calls"
  const char *name;  // a global, a dat, or a function holding invocations
  const char *via;   // the op_* call that reads a dat, else NULL
  const Token *tok;
  const IRFunc *func;
  int after;         // the last invocation of func before it, -1 if none
  int cycle;         // the innermost cycle around it, -1 if none
} SchedHostEvent;

typedef struct {
  const Program *prog;
  SchedKey *keys; int nkeys;
  StrMap key_index;  // name -> key + 1
  StrMap dat_vars;   // dat variable -> its (last) IRDat
  StrMap func_index; // name -> a host function holding invocations
  SchedInvocation *invs; int ninvs;
  SchedFunc *funcs; int nfuncs;
  SchedCycle *cycles; int ncycles;
  SchedDep *deps; int ndeps, deps_cap; // program order (from < to), then per cycle the carried ones
  bool too_many;     // more than OP2C_MAX_SCHEDULE_DEPS: reported, the rest not listed
  const IRDat **never_written; int nnever_written;
  SchedHostEvent *events; int nevents, events_cap;
} Schedule;

Schedule *schedule_analyse(const Program *prog);
// An edit of a source file's text: LEN bytes at AT (in its contents)
// become TEXT.
typedef struct {
  const char *at;
  int len;
  char *text;
} SrcEdit;
// For --target tinsel: the local variables whose op_arg_gbl results may land
// after their call returns, each with a scope guard after its declaration
// and a wait at each use (OP2T_GBL_SCOPE, OP2T_GBL: op_tinsel.h); the edits
// in text order, not overlapping the op_par_loop calls. Returns how many.
int schedule_deferred_gbls(const Program *prog, SrcEdit **edits);
void schedule_dump(FILE *out, const Schedule *s);
// Where an arg touches its dat or global, as the dump writes it: direct,
// pedge:0, pedge:0..1 (a vector), gbl, info.
char *schedule_where(const IRArg *a);

//
// ir_xml.c
//

bool ir_write_xml(const char *path, Program **progs, int nprogs);

//
// backends
//

// --steps (tinsel): each pin's step as generated code, or as a table for
// op2_steps.inc's shared steps (smaller, slower); auto: tables only when
// they let the device types share fewer code groups.
enum { STEPS_AUTO, STEPS_CODE, STEPS_TABLES };

typedef struct {
  const char *output;      // -o
  const char *gen_dir;     // --gen-dir: keep generated sources here
  StrArray cflags;         // passed through to the C/C++ compiler
  const PPOptions *pp;
  const char *self_path;   // argv[0], to find the runtime
  bool verbose;
  bool imem_enlarged;      // --imem enlarged (tinsel): allow images over real Tinsel's imem
  int steps;               // --steps (tinsel): STEPS_AUTO, STEPS_CODE or STEPS_TABLES
  StrArray fw_configs;     // --fw-config NAME (tinsel): also firmware for these thread layouts
  bool count_events;       // --count-events (tinsel): the softswitch counts every message and step
} BackendOptions;

typedef struct {
  const char *name;
  const char *description;
  int (*build)(Program **progs, int nprogs, const BackendOptions *opts);
} Backend;

extern const Backend backend_seq;
extern const Backend backend_tinsel;

// backends/seq/gen.c: the translated copy of a source file in which every
// op_par_loop(kernel, ...) calls op_par_loop_<invocation>(...) instead;
// the hooks add header lines, code before the loop functions, and the loop
// functions themselves.
typedef struct {
  const char *target;
  void (*header)(FILE *out, const Program *prog);       // may be NULL
  void (*before_loops)(FILE *out, const Program *prog); // may be NULL
  void (*gen_loop)(FILE *out, const IRLoop *loop);
  const SrcEdit *edits;     // more edits of the program's text, in text order (may be NULL)
  int nedits;
} Translation;
bool translate_source(const Program *prog, const char *path, const Translation *tr);
void translate_loop_prologue(FILE *out, const IRLoop *loop);

//
// toolchain.c: running the host C/C++ compiler
//

// Compiles the generated sources (one per program, same order) and links
// them with the runtime library found beside op2c (<bin>/../lib).
int compile_and_link(Program **progs, const StrArray *sources, const BackendOptions *opts,
                     const char *runtime_lib);
// The same with more: C sources compiled beside the translations (with the
// include directories given), and runtime libraries linked in order.
int compile_and_link_with(Program **progs, const StrArray *sources, const StrArray *c_sources,
                          const StrArray *c_includes, const BackendOptions *opts,
                          const StrArray *runtime_libs);
// Runs a command (argv, not through a shell); returns its exit status or 1.
int run_command(StrArray *argv, bool verbose);
// <prefix> of op2c (<prefix>/bin/op2c), or OP2C_PREFIX.
char *op2c_prefix(void);

#endif
