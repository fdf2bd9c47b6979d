// fw_build.c: compiles each firmware image with the RISC-V cross compiler
// and checks its code against the instruction memory of a core pair.
//
// The budget is TinselAppInstrBytes (boards/: instruction memory per core
// pair less the boot loader). Software double arithmetic (libgcc) and
// libm come into the size because each image is linked with
// --gc-sections: what is counted is what would be loaded. When firmware/
// is built, its flags and link line are in <prefix>/lib/firmware/ and each
// image is a whole program: boot entry, softswitch, firmware/lib and the
// device code; without them the device code is linked alone.
#include "fw_build.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "elf32.h"
#include "tinsel_config.h"

// Sums of the sizes of the executable sections (code) and of the other
// allocated ones (.rodata, .data, .bss: the DRAM globals) of an image, read
// by the project's one ELF reader (sim/elf32.c); -1 with its message in err.
static long image_sizes(const char *path, long *globals, char *err, size_t errlen) {
  Elf32 e;
  if (elf32_load(path, &e, err, errlen) != 0) {
    elf32_free(&e);
    return -1;
  }
  long code = 0;
  *globals = 0;
  for (int i = 0; i < e.nsecs; i++)
    if (e.secs[i].kind & ELF32_SEC_EXEC)
      code += (long)e.secs[i].size;
    else
      *globals += (long)e.secs[i].size;
  elf32_free(&e);
  return code;
}

static const char *riscv_cc(void) {
  const char *env = getenv("OP2C_RISCV_CC");
  return env && *env ? env : "riscv64-unknown-elf-gcc";
}

// Words of a file under <prefix>/lib/firmware/ (firmware/'s flags, written
// by host/tinsel/rules.mk), or NULL when firmware/ is not built.
static StrArray *fw_words(const char *prefix, const char *config, const char *name) {
  size_t len;
  char *text = read_file(config ? format("%s/lib/firmware/%s/%s", prefix, config, name)
                                : format("%s/lib/firmware/%s", prefix, name), &len);
  if (!text)
    return NULL;
  StrArray *a = xcalloc(1, sizeof(StrArray));
  for (char *w = strtok(text, " \t\n"); w; w = strtok(NULL, " \t\n"))
    strarray_push(a, w);
  return a;
}

// Without firmware/'s flags: rv32imf without hardware divide or fused
// multiply-add (real Tinsel has neither), size-optimised, freestanding.
static const char *fallback_cflags[] = {"-march=rv32imf", "-mabi=ilp32f", "-mno-div", "-ffreestanding",
                                        "-fno-builtin", "-ffp-contract=off", "-Os", "-ffunction-sections",
                                        "-fdata-sections", "-fno-common", NULL};

static void push_all(StrArray *dst, const StrArray *src) {
  for (int i = 0; i < src->len; i++)
    strarray_push(dst, src->data[i]);
}

// Why device code that op2c generated may not compile: the kernels' world.
// A word of the link line: with --count-events, the softswitch that counts
// every message and step (softswitch_steps_count.o, built beside the
// other: host/tinsel/rules.mk) in place of softswitch_steps.o.
static char *softswitch_object(const FwBuild *b, char *word) {
  static const char plain[] = "/softswitch_steps.o";
  size_t n = strlen(word), k = sizeof(plain) - 1;
  if (!b->count_events || n < k || strcmp(word + n - k, plain))
    return word;
  return format("%.*s/softswitch_steps_count.o", (int)(n - k), word);
}

static const char kernels_hint[] =
    "kernels run on the devices, where they see only their arguments, the op_decl_const globals and the "
    "program's functions; a kernel that uses any other global (a counter, a buffer) cannot run on POETS";

// A C++ program's kernels (op2_kernels.cpp, firmware.c) as C++ for the
// device: firmware/'s flags with C++ for C, firmware/include/c++/ first,
// and nothing a freestanding image cannot carry (exceptions, RTTI, guards
// for statics). Compiled once per output directory; NULL on failure.
static char *compile_kernels(const FwBuild *b, const StrArray *cflags) {
  static StrArray done; // objects already compiled by this op2c
  const char *out = b->out_dir ? b->out_dir : b->dir;
  char *src = format("%s/op2_kernels.cpp", b->dir), *obj = format("%s/op2_kernels.o", out);
  for (int i = 0; i < done.len; i++)
    if (!strcmp(done.data[i], obj))
      return obj;
  StrArray cc = {0};
  const char *env = getenv("OP2C_RISCV_CXX");
  strarray_push(&cc, env && *env ? (char *)env : "riscv64-unknown-elf-g++");
  for (int i = 0; cflags && i < cflags->len; i++) {
    const char *w = cflags->data[i];
    if (!strncmp(w, "-std=", 5))
      continue;
    if (!strncmp(w, "-I", 2) && file_exists(format("%s/c++/cmath", w + 2)))
      strarray_push(&cc, format("%s/c++", w));
    strarray_push(&cc, (char *)w);
  }
  for (int i = 0; !cflags && fallback_cflags[i]; i++)
    strarray_push(&cc, (char *)fallback_cflags[i]);
  const char *cxx[] = {"-std=gnu++17", "-fno-exceptions", "-fno-rtti", "-fno-threadsafe-statics",
                       "-fno-use-cxa-atexit", "-fno-asynchronous-unwind-tables", "-flto", "-Wall", "-Wextra", "-c"};
  for (size_t i = 0; i < sizeof(cxx) / sizeof(*cxx); i++)
    strarray_push(&cc, (char *)cxx[i]);
  strarray_push(&cc, src);
  strarray_push(&cc, "-o");
  strarray_push(&cc, obj);
  if (run_command(&cc, b->verbose)) {
    error_plain("the kernels do not compile for the device (%s): %s", src, kernels_hint);
    return NULL;
  }
  strarray_push(&done, obj);
  return obj;
}

// Every instruction of a linked image must be one Tinsel executes:
// checkelf names each that is not and the function it is in.
static int check_instructions(const FwBuild *b, const char *elf) {
  StrArray argv = {0};
  strarray_push(&argv, format("%s/bin/checkelf", b->prefix));
  strarray_push(&argv, "--quiet");
  strarray_push(&argv, "--budget");
  strarray_push(&argv, "0x40000000"); // the sizes are op2c's to check (fw_build_images)
  strarray_push(&argv, (char *)elf);
  if (!run_command(&argv, b->verbose))
    return 0;
  error_plain("%s has instructions real Tinsel cannot execute (checkelf names each and its function above)", elf);
  return 1;
}

static int compile_image(const FwBuild *b, const FwImage *img, char **elf) {
  char *src = format("%s/%s.c", b->dir, img->name);
  const char *out = b->out_dir ? b->out_dir : b->dir;
  char *obj = format("%s/%s.o", out, img->name);
  *elf = format("%s/%s.elf", out, img->name);
  StrArray *cflags = fw_words(b->prefix, b->config, "cflags"), *ldflags = fw_words(b->prefix, b->config, "ldflags");
  if (b->config && (!cflags || !ldflags)) {
    error_plain("no firmware for configuration '%s' (%s/lib/firmware/%s/): make builds it for the configurations "
                "of FW_LAYOUTS (host/tinsel/rules.mk)", b->config, b->prefix, b->config);
    return 1;
  }
  StrArray cc = {0};
  strarray_push(&cc, (char *)riscv_cc());
  if (cflags)
    push_all(&cc, cflags);
  else
    for (int i = 0; fallback_cflags[i]; i++)
      strarray_push(&cc, (char *)fallback_cflags[i]);
  strarray_push(&cc, "-std=gnu11");
  if (b->cxx_kernels) // link-time optimisation: the kernels inline into the handlers as in one C file
    strarray_push(&cc, "-flto");
  strarray_push(&cc, "-Wall");
  strarray_push(&cc, "-Wextra");
  strarray_push(&cc, format("-I%s", b->dir));
  strarray_push(&cc, format("-I%s/include", b->prefix));
  strarray_push(&cc, "-c");
  strarray_push(&cc, src);
  strarray_push(&cc, "-o");
  strarray_push(&cc, obj);
  if (run_command(&cc, b->verbose)) {
    error_plain("the device code of %s does not compile (%s): %s", img->name, src, kernels_hint);
    return 1;
  }
  char *kernels = b->cxx_kernels ? compile_kernels(b, cflags) : NULL;
  if (b->cxx_kernels && !kernels)
    return 1;
  // Link with the softswitch and firmware/'s library: flags and objects,
  // then ours, then the libraries after "LIBS". Without them, the device
  // code alone, rooted at its table, so the count is what it would add.
  StrArray link = {0};
  strarray_push(&link, (char *)riscv_cc());
  int libs_at = -1;
  if (ldflags) {
    for (int i = 0; i < ldflags->len && libs_at < 0; i++)
      if (!strcmp(ldflags->data[i], "LIBS"))
        libs_at = i;
      else
        strarray_push(&link, softswitch_object(b, ldflags->data[i]));
    if (img->globals_at) // this group's slice of the DRAM globals (fw_place_globals)
      strarray_push(&link, format("-Wl,--section-start=.rodata=0x%lx", img->globals_at));
    strarray_push(&link, obj);
    if (kernels)
      strarray_push(&link, kernels);
    for (int i = libs_at + 1; libs_at >= 0 && i < ldflags->len; i++)
      strarray_push(&link, ldflags->data[i]);
  } else {
    for (int i = 0; fallback_cflags[i]; i++)
      strarray_push(&link, (char *)fallback_cflags[i]);
    strarray_push(&link, "-nostdlib");
    strarray_push(&link, "-nostartfiles");
    strarray_push(&link, "-Wl,--gc-sections");
    strarray_push(&link, "-Wl,--entry=ss_dev_types");
    strarray_push(&link, "-Wl,--undefined=ss_dev_types");
    strarray_push(&link, obj);
    if (kernels)
      strarray_push(&link, kernels);
    strarray_push(&link, "-lgcc");
  }
  if (kernels) { // LTO: the code is generated at the link, with the compile's optimisation level
    strarray_push(&link, "-flto");
    for (int i = 0; cflags && i < cflags->len; i++)
      if (!strncmp(cflags->data[i], "-O", 2))
        strarray_push(&link, cflags->data[i]);
  }
  strarray_push(&link, "-o");
  strarray_push(&link, *elf);
  if (run_command(&link, b->verbose))
    return 1;
  return ldflags ? check_instructions(b, *elf) : 0;
}

static bool image_has_double(const GGraphType *g, const FwImage *img) {
  for (int i = 0; i < g->ntypes; i++)
    if (img->has_type[i] && (strstr(g->types[i]->state, "double") || strstr(g->types[i]->props, "double")))
      return true;
  return strstr(g->kernels, "double") != NULL;
}

// Compiles, links and measures one image; adds its line to the manifest.
int fw_build_one(FwBuild *b, const GGraphType *g, FwImage *img) {
  if (fw_relink(b, g, img))
    return 1;
  long budget = TinselAppInstrBytes, enlarged = TinselEnlargedAppInstrBytes;
  const char *fits = img->text_bytes <= budget ? "real" : img->text_bytes <= enlarged ? "enlarged" : "none";
  fprintf(b->manifest, "%s %ld %s", img->name, img->text_bytes, fits);
  for (int t = 0; t < g->ntypes; t++)
    if (img->has_type[t])
      fprintf(b->manifest, " %s", g->types[t]->id);
  fprintf(b->manifest, "\n");
  return 0;
}

long fw_budget(const FwBuild *b) { return b->enlarged_ok ? TinselEnlargedAppInstrBytes : TinselAppInstrBytes; }

// A type that cannot fit alone cannot be placed: an error with the sizes
// (a warning when the enlarged-imem model is allowed and it fits that).
static int check_single(const FwBuild *b, const GGraphType *g, const FwImage *img) {
  long budget = TinselAppInstrBytes, enlarged = TinselEnlargedAppInstrBytes;
  if (img->text_bytes <= budget)
    return 0;
  const char *why = image_has_double(g, img)
                        ? " (double arithmetic is software on Tinsel: libgcc's routines are in the count)"
                        : "";
  if (img->text_bytes <= enlarged && b->enlarged_ok) {
    fprintf(stderr,
            "op2c: warning: device type %s needs %ld bytes of instruction memory, more than the %ld "
            "of real Tinsel (TinselAppInstrBytes)%s; it runs only on a model with enlarged "
            "instruction memory (boards/ key EnlargedLogInstrsPerCore: %ld bytes)\n",
            g->types[img->type]->id, img->text_bytes, budget, why, enlarged);
    return 0;
  }
  if (b->trial)
    return 1;
  error_plain("device type %s needs %ld bytes of instruction memory, more than the %ld a core pair "
              "has for the application (TinselAppInstrBytes)%s%s%s",
              g->types[img->type]->id, img->text_bytes, budget, why,
              img->text_bytes <= enlarged
                  ? format("; it fits the enlarged-imem model (boards/ key EnlargedLogInstrsPerCore, "
                           "%ld bytes): pass --imem enlarged to build for it", enlarged)
                  : "",
              g->table_steps ? "" : " (--steps tables makes each step smaller, and slower)");
  return 1;
}

int fw_build_images(FwBuild *b, const GGraphType *g, FwImage *imgs, int nimgs) {
  b->manifest = fopen(format("%s/images.txt", b->dir), "w");
  if (!b->manifest) {
    error_plain("cannot write '%s/images.txt'", b->dir);
    return 1;
  }
  fprintf(b->manifest, "# image text_bytes budget types...  (budget: real = TinselAppInstrBytes %ld, "
                       "enlarged = TinselEnlargedAppInstrBytes %ld, none = fits neither)\n",
          (long)TinselAppInstrBytes, (long)TinselEnlargedAppInstrBytes);
  int rc = 0;
  for (int i = 0; i < nimgs && !rc; i++)
    rc = fw_build_one(b, g, &imgs[i]);
  if (!rc) // every type that does not fit, not just the first
    for (int i = 0; i < nimgs; i++)
      if (imgs[i].single && check_single(b, g, &imgs[i]))
        rc = 1;
  if (!rc)
    rc = fw_group_types(b, g, imgs, nimgs);
  if (fclose(b->manifest) != 0) {
    error_plain("cannot write '%s/images.txt'", b->dir);
    rc = 1;
  }
  return rc;
}

int fw_relink(FwBuild *b, const GGraphType *g, FwImage *img) {
  (void)g;
  char *elf;
  if (compile_image(b, img, &elf))
    return 1;
  char err[512];
  img->text_bytes = image_sizes(elf, &img->globals_bytes, err, sizeof err);
  if (img->text_bytes < 0) {
    error_plain("cannot read the sections of the image: %s", err);
    return 1;
  }
  return 0;
}

int fw_build_config(const FwBuild *b, const GGraphType *g, const char *config) {
  FwBuild c = *b;
  c.config = config;
  c.out_dir = format("%s/%s", b->dir, config);
  c.manifest = NULL;
  if (mkdir(c.out_dir, 0777) != 0 && errno != EEXIST) {
    error_plain("cannot create '%s': %s", c.out_dir, strerror(errno));
    return 1;
  }
  for (int k = 0; k < b->ngroups; k++) {
    FwImage img = b->groups[k]; // same types and globals slice; its own measurement
    if (fw_relink(&c, g, &img))
      return 1;
    if (img.text_bytes > fw_budget(b)) {
      error_plain("code group %s built for configuration '%s' needs %ld bytes of instruction memory, more than "
                  "the %ld it has (%ld for the board's layout)",
                  img.name, config, img.text_bytes, fw_budget(b), b->groups[k].text_bytes);
      return 1;
    }
  }
  return 0;
}
