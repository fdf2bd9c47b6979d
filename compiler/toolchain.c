// toolchain.c: runs the host C/C++ compiler on generated sources.
//
// The runtime library and headers are found relative to op2c itself
// (<prefix>/bin/op2c, <prefix>/lib, <prefix>/include), so a build tree works
// without installation; OP2C_PREFIX overrides. CC and CXX are honoured.
#include "op2c.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

char *op2c_prefix(void) {
  const char *env = getenv("OP2C_PREFIX");
  if (env && *env)
    return xstrdup(env);
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0)
    return xstrdup(".");
  buf[n] = '\0';
  return dir_name(dir_name(buf));
}

// Splits a command such as "gcc -m32" from CC into words.
static void push_words(StrArray *argv, const char *cmd) {
  char *s = xstrdup(cmd);
  for (char *w = strtok(s, " \t"); w; w = strtok(NULL, " \t"))
    strarray_push(argv, w);
}

int run_command(StrArray *argv, bool verbose) {
  strarray_push(argv, NULL);
  argv->len--;
  if (verbose) {
    for (int i = 0; i < argv->len; i++)
      fprintf(stderr, "%s%s", i ? " " : "", argv->data[i]);
    fprintf(stderr, "\n");
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    error_plain("cannot start '%s': %s", argv->data[0], strerror(errno));
    return 1;
  }
  if (pid == 0) {
    execvp(argv->data[0], argv->data);
    fprintf(stderr, "op2c: error: cannot run '%s': %s\n", argv->data[0], strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return 1;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return 0;
  error_plain("'%s' failed (%s %d)", argv->data[0],
              WIFEXITED(status) ? "exit status" : "signal",
              WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
  return 1;
}

static const char *compiler_for(bool cxx) {
  const char *env = getenv(cxx ? "CXX" : "CC");
  return env && *env ? env : cxx ? "c++" : "cc";
}

static void push_common(StrArray *argv, const BackendOptions *opts) {
  for (int i = 0; i < opts->cflags.len; i++)
    strarray_push(argv, opts->cflags.data[i]);
}

int compile_and_link(Program **progs, const StrArray *sources, const BackendOptions *opts,
                     const char *runtime_lib) {
  StrArray libs = {0}, none = {0};
  strarray_push(&libs, (char *)runtime_lib);
  return compile_and_link_with(progs, sources, &none, &none, opts, &libs);
}

// One compile: CC or CXX with the user's flags, includes and defines.
static int compile_one(const char *src, const char *obj, bool cxx, const char *src_dir,
                       const StrArray *includes, const BackendOptions *opts) {
  StrArray argv = {0};
  push_words(&argv, compiler_for(cxx));
  if (!cxx)
    strarray_push(&argv, "-fgnu89-inline"); // kernels are `inline` in headers
  push_common(&argv, opts);
  if (src_dir)
    strarray_push(&argv, format("-I%s", src_dir));
  for (int j = 0; j < opts->pp->include_dirs.len; j++)
    strarray_push(&argv, format("-I%s", opts->pp->include_dirs.data[j]));
  for (int j = 0; j < opts->pp->defines.len; j++)
    strarray_push(&argv, format("-D%s", opts->pp->defines.data[j]));
  for (int j = 0; j < includes->len; j++)
    strarray_push(&argv, format("-I%s", includes->data[j]));
  strarray_push(&argv, "-c");
  strarray_push(&argv, (char *)src);
  strarray_push(&argv, "-o");
  strarray_push(&argv, (char *)obj);
  return run_command(&argv, opts->verbose);
}

// A program that calls op_hdf5.h links libop2_hdf5 (before the runtime it
// calls) and then libhdf5, with the flags the build found for it
// (<prefix>/lib/op2_hdf5.libs, written by host/hdf5/rules.mk).
static StrArray hdf5_flags;

static bool hdf5_runtime(const char *prefix, StrArray *libs) {
  char *lib = format("%s/lib/libop2_hdf5.a", prefix), *flags = format("%s/lib/op2_hdf5.libs", prefix);
  char *text = file_exists(lib) ? read_file(flags, NULL) : NULL;
  if (!text) {
    error_plain("the program calls op_hdf5.h but %s or %s is missing (build them with 'make', or set "
                "OP2C_PREFIX)", lib, flags);
    return false;
  }
  strarray_push(libs, lib);
  hdf5_flags = (StrArray){0};
  push_words(&hdf5_flags, text);
  return true;
}

int compile_and_link_with(Program **progs, const StrArray *sources, const StrArray *c_sources,
                          const StrArray *c_includes, const BackendOptions *opts,
                          const StrArray *runtime_libs) {
  char *prefix = op2c_prefix();
  StrArray includes = *c_includes;
  strarray_push(&includes, format("%s/include", prefix));
  StrArray libs = {0};
  bool hdf5 = false;
  for (int i = 0; i < sources->len; i++)
    hdf5 |= progs[i]->uses_hdf5;
  if (hdf5 && !hdf5_runtime(prefix, &libs))
    return 1;
  for (int i = 0; i < runtime_libs->len; i++) {
    if (runtime_libs->data[i][0] == '-') { // a system library (-lmetis): the linker finds it
      strarray_push(&libs, runtime_libs->data[i]);
      continue;
    }
    char *lib = format("%s/lib/%s", prefix, runtime_libs->data[i]);
    if (!file_exists(lib)) {
      error_plain("runtime library not found: %s (build it with 'make', or set OP2C_PREFIX)", lib);
      return 1;
    }
    strarray_push(&libs, lib);
  }
  bool any_cxx = false;
  StrArray objects = {0};
  for (int i = 0; i < sources->len + c_sources->len; i++) {
    bool extra = i >= sources->len;
    const char *src = extra ? c_sources->data[i - sources->len] : sources->data[i];
    size_t n = strlen(src); // generated sources are C unless .cpp
    bool cxx = extra ? n > 4 && !strcmp(src + n - 4, ".cpp") : progs[i]->is_cxx;
    any_cxx |= cxx;
    char *obj = format("%s.o", src);
    if (compile_one(src, obj, cxx, extra ? NULL : dir_name(progs[i]->file->name), &includes, opts))
      return 1;
    strarray_push(&objects, obj);
  }
  StrArray argv = {0};
  push_words(&argv, compiler_for(any_cxx));
  push_common(&argv, opts);
  for (int i = 0; i < objects.len; i++)
    strarray_push(&argv, objects.data[i]);
  for (int i = 0; i < libs.len; i++)
    strarray_push(&argv, libs.data[i]);
  if (hdf5)
    for (int i = 0; i < hdf5_flags.len; i++)
      strarray_push(&argv, hdf5_flags.data[i]);
  strarray_push(&argv, "-lm");
  strarray_push(&argv, "-o");
  strarray_push(&argv, (char *)opts->output);
  return run_command(&argv, opts->verbose);
}
