// backend.c: op2c --target tinsel. From the IR of an OP2 program it makes
//
//   fw/      the device code (firmware.c) and one firmware image per device
//            type plus one with every type (img_all), compiled for Tinsel
//            and checked against the instruction memory (fw_build.c);
//   the host executable: the user's sources with each op_par_loop turned
//            into an invocation (host_loops.c), the protocol tables
//            (host_tables.c), and the device code compiled for the host,
//            which the runtime's functional engine runs (host/tinsel/).
//
// With --gen-dir DIR everything stays in DIR; docs/tinsel-backend.md has
// the layout.
#include "device_calls.h"
#include "fw_build.h"
#include "host_tables.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

// The source file with the par-loops: the graph is one program's.
static Program *main_program(Program **progs, int n) {
  Program *main_prog = NULL;
  for (int i = 0; i < n; i++) {
    if (progs[i]->nloops == 0)
      continue;
    if (main_prog) {
      error_plain("--target tinsel needs all op_par_loops in one source file; found them in '%s' and '%s'",
                  main_prog->file->name, progs[i]->file->name);
      return NULL;
    }
    main_prog = progs[i];
  }
  return main_prog ? main_prog : progs[0];
}

static FwImage *make_images(const GGraphType *g, int *n) {
  FwImage *imgs = xcalloc((size_t)g->ntypes + 1, sizeof(FwImage));
  for (int i = 0; i < g->ntypes; i++) {
    imgs[i].name = format("img_%s", g->types[i]->id);
    imgs[i].has_type = xcalloc((size_t)g->ntypes, sizeof(bool));
    imgs[i].has_type[i] = true;
    imgs[i].single = true;
    imgs[i].type = i;
  }
  FwImage *all = &imgs[g->ntypes];
  all->name = "img_all";
  all->has_type = xcalloc((size_t)g->ntypes + 1, sizeof(bool));
  for (int i = 0; i < g->ntypes; i++)
    all->has_type[i] = true;
  *n = g->ntypes + 1;
  return imgs;
}

static const char *basename_of(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

// The group ELFs and img_all.elf go to OUTPUT.fw/, where the runtime's
// engines that load firmware find them (host/tinsel/images.h op2t_group_elf);
// those built for another thread layout (--fw-config NAME) to OUTPUT.fw/NAME/.
static int copy_images(const char *fw, const char *dir, const FwImage *groups, int ngroups, bool with_all) {
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    error_plain("cannot create '%s': %s", dir, strerror(errno));
    return 1;
  }
  for (int k = with_all ? -1 : 0; k < ngroups; k++) {
    const char *name = k < 0 ? "img_all" : groups[k].name;
    size_t len;
    char *bytes = read_file(format("%s/%s.elf", fw, name), &len);
    char *to = format("%s/%s.elf", dir, name);
    FILE *f = bytes ? fopen(to, "wb") : NULL;
    if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
      error_plain("cannot copy %s/%s.elf to '%s'", fw, name, to);
      return 1;
    }
  }
  return 0;
}

// The device code's sources and images in FW, grouped (fw_group.c): the
// images of g as g->table_steps says. TRIAL: a type that does not fit
// fails quietly.
static int build_firmware(const char *fw, const GGraphType *g, const BackendOptions *opts, FwBuild *fb,
                          bool trial) {
  int nimgs;
  FwImage *imgs = make_images(g, &nimgs);
  if (!fw_write_sources(fw, g))
    return 1;
  for (int i = 0; i < nimgs; i++)
    if (!fw_write_image(fw, g, &imgs[i]))
      return 1;
  *fb = (FwBuild){.dir = fw, .prefix = op2c_prefix(), .verbose = opts->verbose, .enlarged_ok = opts->imem_enlarged,
                  .cxx_kernels = g->prog->is_cxx, .trial = trial, .count_events = opts->count_events};
  return fw_build_images(fb, g, imgs, nimgs);
}

static int build(Program **progs, int nprogs, const BackendOptions *opts) {
  Program *prog = main_program(progs, nprogs);
  if (!prog)
    return 1;
  if (!device_check_calls(prog))
    return 1;
  Protocol *proto = protocol_lower(prog, TINSEL_MAX_PAYLOAD);
  protocol_check_sizes(proto, TINSEL_MAX_PAYLOAD);
  GGraphType *g = graph_build(prog, proto);
  if (diag_errors)
    return 1;

  char *fw = format("%s/fw", opts->gen_dir);
  const char *dirs[] = {opts->gen_dir, fw};
  for (int i = 0; i < 2; i++)
    if (mkdir(dirs[i], 0777) != 0 && errno != EEXIST) {
      error_plain("cannot create '%s': %s", dirs[i], strerror(errno));
      return 1;
    }
  FwBuild fb;
  g->table_steps = opts->steps == STEPS_TABLES;
  if (build_firmware(fw, g, opts, &fb, false))
    return 1;
  // Auto: tables cost instructions in every step (docs/tinsel-backend.md,
  // "Steps from tables"), so only where they let the types share fewer
  // code groups, each then spread over more core pairs.
  if (opts->steps == STEPS_AUTO && fb.ngroups > 1) {
    FwBuild tb;
    int errors = diag_errors;
    g->table_steps = true;
    int rc = build_firmware(fw, g, opts, &tb, true);
    if (diag_errors != errors)
      return 1;
    if (!rc && tb.ngroups < fb.ngroups)
      fb = tb;
    else if ((g->table_steps = false, build_firmware(fw, g, opts, &fb, false)))
      return 1;
  }
  if (copy_images(fw, format("%s.fw", opts->output), fb.groups, fb.ngroups, true))
    return 1;
  for (int i = 0; i < opts->fw_configs.len; i++) {
    const char *cfg = opts->fw_configs.data[i];
    if (fw_build_config(&fb, g, cfg) ||
        copy_images(format("%s/%s", fw, cfg), format("%s.fw/%s", opts->output, cfg), fb.groups, fb.ngroups, false))
      return 1;
  }

  // The host executable.
  StrArray sources = {0}, c_sources = {0}, includes = {0}, libs = {0};
  for (int i = 0; i < nprogs; i++) {
    char *path = format("%s/%d_%s", opts->gen_dir, i, basename_of(progs[i]->file->name));
    if (!host_write_translation(progs[i], path))
      return 1;
    strarray_push(&sources, path);
  }
  char *tables = format("%s/op2_host.c", opts->gen_dir);
  FILE *f = fopen(tables, "w");
  if (!f) {
    error_plain("cannot write '%s'", tables);
    return 1;
  }
  host_write_tables(f, g, proto);
  host_write_groups(f, g, fb.groups, fb.ngroups);
  if (opts->count_events) // the same (invoke.c)
    fprintf(f, "\n// Built with --count-events: the softswitch counts every message and step.\n"
               "int op2t_counts_events(void) { return 1; }\n");
  for (int i = 0; i < nprogs; i++)
    if (device_prints(progs[i])) { // overrides libop2_tinsel's weak default (invoke.c)
      fprintf(f, "\n// A kernel prints: invocations run one at a time, so each one's lines come before\n"
                 "// the host's next (docs/tinsel-backend.md).\nint op2t_device_prints(void) { return 1; }\n");
      break;
    }
  if (fclose(f) != 0) {
    error_plain("cannot write '%s'", tables);
    return 1;
  }
  strarray_push(&c_sources, tables);
  strarray_push(&c_sources, format("%s/img_all.c", fw)); // the device code, for the host
  if (prog->is_cxx) // and its kernels, as C++ there too
    strarray_push(&c_sources, format("%s/op2_kernels.cpp", fw));
  strarray_push(&includes, fw);
  strarray_push(&libs, "libop2_tinsel.a");
  strarray_push(&libs, "libop2_seq.a");
  strarray_push(&libs, "libop2_place.a"); // threads for begin/end per thread (host/tinsel/threads.c)
  strarray_push(&libs, "libboards.a");
  strarray_push(&libs, "-lmetis");
  return compile_and_link_with(progs, &sources, &c_sources, &includes, opts, &libs);
}

const Backend backend_tinsel = {
    .name = "tinsel",
    .description = "POETS/Tinsel: firmware images and a host executable (functional engine until HostLink)",
    .build = build,
};
