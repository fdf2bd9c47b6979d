// main.c: the op2c driver. The pipeline, per source file (frontend.c):
//
//   tokenize -> preprocess -> scan (IR) -> check
//
// then, for the whole program: name invocations, dump or write the IR if
// asked, and hand the IR to the chosen back end.
#include "op2c.h"
#include "backends/tinsel/device_calls.h"
#include "backends/tinsel/graph.h"

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OP2C_VERSION "0.1"

// op2c is a one-shot process: like chibicc it allocates and never frees,
// and the OS reclaims everything at exit. Tell LeakSanitizer so (only
// linked in sanitizer builds, where this hook is looked up).
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

static const Backend *backends[] = {&backend_seq, &backend_tinsel};

typedef struct {
  const Backend *backend;
  BackendOptions be;
  PPOptions pp;
  StrArray sources;
  bool dump_ir;
  bool dump_protocol;
  bool dump_schedule;
  const char *transform_path;
  const char *xml_path;
  const char *graph_xml_path;
  bool output_given;
} Options;

static void usage(FILE *out) {
  fprintf(out,
          "usage: op2c [options] SOURCE...\n"
          "Compiles an OP2 program (C or C++ sources using op_seq.h) for a target.\n"
          "\n"
          "  -t, --target NAME    back end (default seq; '-t ?' lists them)\n"
          "  -o FILE              the executable to write (default a.out)\n"
          "  -I DIR               search DIR for #include \"...\" files\n"
          "  -D NAME[=VALUE]      define a macro\n"
          "  --dump-ir            print the IR (docs/ir.md) to stdout\n"
          "  --dump-protocol      print each invocation's protocol (seed 000) to stdout\n"
          "  --dump-schedule      print the loop-chain analysis (docs/schedule.md) to stdout\n"
          "  --transform FILE     apply the transformations FILE names (fuse; docs/transform.md)\n"
          "  --emit-ir-xml FILE   write the IR as XML (docs/ir-xml.md)\n"
          "  --emit-xml FILE      write the POETS graph type (XML v4, docs/graph-type.md)\n"
          "  --gen-dir DIR        keep the generated sources in DIR\n"
          "  --imem real|enlarged tinsel: the instruction memory images must fit (default real;\n"
          "                       enlarged = the model's EnlargedLogInstrsPerCore, boards/)\n"
          "  --steps auto|code|tables  tinsel: each pin's step as generated code or as a table for\n"
          "                       shared steps (smaller, slower); auto (default): tables when they\n"
          "                       let the device types share fewer code groups\n"
          "  --fw-config NAME     tinsel: also build the code groups for boards/ configuration NAME\n"
          "                       (a thread layout other than the board's: tile, core) into EXE.fw/NAME/\n"
          "  --count-events       tinsel: the softswitch counts every message received and every\n"
          "                       handler run, for OP2_TINSEL_UTIL (about 3 %% more cycles)\n"
          "  -v                   show the compiler commands run\n"
          "  -O* -g* -f* -W* -m* -std=*   passed to the C/C++ compiler\n"
          "  --help, --version\n"
          "\n"
          "With --dump-ir, --dump-protocol, --dump-schedule, --emit-ir-xml or --emit-xml\n"
          "and no -o, op2c stops there.\n");
}

static void list_targets(void) {
  for (size_t i = 0; i < sizeof(backends) / sizeof(*backends); i++)
    printf("%-8s %s\n", backends[i]->name, backends[i]->description);
}

static const Backend *find_backend(const char *name) {
  for (size_t i = 0; i < sizeof(backends) / sizeof(*backends); i++)
    if (strcmp(backends[i]->name, name) == 0)
      return backends[i];
  return NULL;
}

static bool is_passthrough(const char *arg) {
  static const char *prefixes[] = {"-O", "-g", "-f", "-W", "-m", "-std="};
  for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++)
    if (strncmp(arg, prefixes[i], strlen(prefixes[i])) == 0)
      return true;
  return false;
}

// The value of an option given as "-I DIR" or "-IDIR".
static const char *option_value(int argc, char **argv, int *i, const char *opt) {
  size_t n = strlen(opt);
  if (argv[*i][n])
    return argv[*i] + n;
  if (*i + 1 >= argc) {
    fprintf(stderr, "op2c: error: option '%s' needs a value\n", opt);
    exit(2);
  }
  return argv[++*i];
}

static void parse_args(int argc, char **argv, Options *o) {
  o->backend = &backend_seq;
  o->be.output = "a.out";
  o->be.self_path = argv[0];
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      exit(0);
    } else if (!strcmp(a, "--version")) {
      printf("op2c %s\n", OP2C_VERSION);
      exit(0);
    } else if (!strcmp(a, "-t") || !strcmp(a, "--target") || !strncmp(a, "--target=", 9)) {
      const char *name = a[2] == '-' && a[8] == '=' ? a + 9 : option_value(argc, argv, &i, a);
      if (!strcmp(name, "?")) {
        list_targets();
        exit(0);
      }
      if (!(o->backend = find_backend(name))) {
        fprintf(stderr, "op2c: error: unknown target '%s'; available targets:\n", name);
        list_targets();
        exit(2);
      }
    } else if (!strncmp(a, "-o", 2)) {
      o->be.output = option_value(argc, argv, &i, "-o");
      o->output_given = true;
    } else if (!strncmp(a, "-I", 2)) {
      strarray_push(&o->pp.include_dirs, (char *)option_value(argc, argv, &i, "-I"));
    } else if (!strncmp(a, "-D", 2)) {
      strarray_push(&o->pp.defines, (char *)option_value(argc, argv, &i, "-D"));
    } else if (!strcmp(a, "--dump-ir")) {
      o->dump_ir = true;
    } else if (!strcmp(a, "--dump-protocol")) {
      o->dump_protocol = true;
    } else if (!strcmp(a, "--dump-schedule")) {
      o->dump_schedule = true;
    } else if (!strcmp(a, "--transform")) {
      o->transform_path = option_value(argc, argv, &i, "--transform");
    } else if (!strcmp(a, "--emit-ir-xml")) {
      o->xml_path = option_value(argc, argv, &i, "--emit-ir-xml");
    } else if (!strcmp(a, "--emit-xml")) {
      o->graph_xml_path = option_value(argc, argv, &i, "--emit-xml");
    } else if (!strcmp(a, "--gen-dir")) {
      o->be.gen_dir = option_value(argc, argv, &i, "--gen-dir");
    } else if (!strcmp(a, "--imem")) {
      const char *v = option_value(argc, argv, &i, "--imem");
      if (strcmp(v, "real") && strcmp(v, "enlarged")) {
        fprintf(stderr, "op2c: error: --imem takes 'real' or 'enlarged', not '%s'\n", v);
        exit(2);
      }
      o->be.imem_enlarged = !strcmp(v, "enlarged");
    } else if (!strcmp(a, "--steps")) {
      const char *v = option_value(argc, argv, &i, "--steps");
      if (strcmp(v, "auto") && strcmp(v, "code") && strcmp(v, "tables")) {
        fprintf(stderr, "op2c: error: --steps takes 'auto', 'code' or 'tables', not '%s'\n", v);
        exit(2);
      }
      o->be.steps = !strcmp(v, "code") ? STEPS_CODE : !strcmp(v, "tables") ? STEPS_TABLES : STEPS_AUTO;
    } else if (!strcmp(a, "--count-events")) {
      o->be.count_events = true;
    } else if (!strcmp(a, "--fw-config")) {
      const char *v = option_value(argc, argv, &i, "--fw-config");
      if (!*v || strchr(v, '/') || strchr(v, '.')) {
        fprintf(stderr, "op2c: error: --fw-config takes a boards/ configuration name (tile, core), not '%s'\n", v);
        exit(2);
      }
      strarray_push(&o->be.fw_configs, (char *)v);
    } else if (!strcmp(a, "-v")) {
      o->be.verbose = true;
    } else if (is_passthrough(a)) {
      strarray_push(&o->be.cflags, (char *)a);
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "op2c: error: unknown option '%s' (see op2c --help)\n", a);
      exit(2);
    } else {
      strarray_push(&o->sources, (char *)a);
    }
  }
  if (o->sources.len == 0) {
    fprintf(stderr, "op2c: error: no source files\n");
    usage(stderr);
    exit(2);
  }
}

// The POETS graph of the program: the one source file that holds its par-loops.
static bool emit_graph_xml(const char *path, Program **progs, int n) {
  Program *main_prog = NULL;
  for (int i = 0; i < n; i++) {
    if (progs[i]->nloops == 0)
      continue;
    if (main_prog) {
      error_plain("--emit-xml needs all op_par_loops in one source file; found them in '%s' and '%s'",
                  main_prog->file->name, progs[i]->file->name);
      return false;
    }
    main_prog = progs[i];
  }
  if (!main_prog) {
    error_plain("--emit-xml: the program has no op_par_loop");
    return false;
  }
  if (!device_check_calls(main_prog))
    return false;
  Protocol *proto = protocol_lower(main_prog, TINSEL_MAX_PAYLOAD);
  protocol_check_sizes(proto, TINSEL_MAX_PAYLOAD);
  GGraphType *g = graph_build(main_prog, proto);
  return diag_errors == 0 && graph_write_xml(path, g);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

static int run_backend(Options *o, Program **progs, int n) {
  char *tmp = NULL;
  if (!o->be.gen_dir) {
    tmp = xstrdup("/tmp/op2c.XXXXXX");
    if (!mkdtemp(tmp)) {
      fprintf(stderr, "op2c: error: cannot create a temporary directory: %s\n", strerror(errno));
      return 1;
    }
    o->be.gen_dir = tmp;
  } else if (mkdir(o->be.gen_dir, 0777) != 0 && errno != EEXIST) { // --gen-dir DIR: made if missing
    fprintf(stderr, "op2c: error: cannot create --gen-dir '%s': %s\n", o->be.gen_dir, strerror(errno));
    return 1;
  }
  o->be.pp = &o->pp;
  int rc = o->backend->build(progs, n, &o->be);
  if (tmp)
    nftw(tmp, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
  return rc;
}

int main(int argc, char **argv) {
  Options o = {0};
  parse_args(argc, argv, &o);

  Program **progs = xcalloc((size_t)o.sources.len, sizeof(Program *));
  for (int i = 0; i < o.sources.len; i++)
    if (!(progs[i] = front_end(o.sources.data[i], &o.pp)))
      return 1;
  if (diag_errors)
    return 1;
  for (int i = 0; i < o.sources.len; i++)
    ir_name_invocations(progs[i]);
  for (int i = 0; o.transform_path && i < o.sources.len; i++)
    if (!transform_apply(progs[i], o.transform_path))
      return 1;

  if (o.dump_ir)
    for (int i = 0; i < o.sources.len; i++)
      ir_dump(stdout, progs[i]);
  if (o.xml_path && !ir_write_xml(o.xml_path, progs, o.sources.len))
    return 1;
  if (o.dump_protocol)
    for (int i = 0; i < o.sources.len; i++)
      protocol_dump(stdout, protocol_lower(progs[i], TINSEL_MAX_PAYLOAD));
  if (o.dump_schedule)
    for (int i = 0; i < o.sources.len; i++)
      schedule_dump(stdout, schedule_analyse(progs[i]));
  if (diag_errors)
    return 1;
  if (o.graph_xml_path && !emit_graph_xml(o.graph_xml_path, progs, o.sources.len))
    return 1;
  if ((o.dump_ir || o.dump_protocol || o.dump_schedule || o.xml_path || o.graph_xml_path) && !o.output_given)
    return 0;
  return run_backend(&o, progs, o.sources.len) ? 1 : 0;
}
