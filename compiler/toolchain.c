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

static char *prefix_dir(void) {
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

static int run(StrArray *argv, bool verbose) {
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
  char *prefix = prefix_dir();
  char *lib = format("%s/lib/%s", prefix, runtime_lib);
  char *inc = format("%s/include", prefix);
  if (!file_exists(lib)) {
    error_plain("runtime library not found: %s (build it with 'make', or set OP2C_PREFIX)", lib);
    return 1;
  }
  bool any_cxx = false;
  StrArray objects = {0};
  for (int i = 0; i < sources->len; i++) {
    bool cxx = progs[i]->is_cxx;
    any_cxx |= cxx;
    StrArray argv = {0};
    push_words(&argv, compiler_for(cxx));
    if (!cxx)
      strarray_push(&argv, "-fgnu89-inline"); // kernels are `inline` in headers
    push_common(&argv, opts);
    strarray_push(&argv, format("-I%s", dir_name(progs[i]->file->name)));
    for (int j = 0; j < opts->pp->include_dirs.len; j++)
      strarray_push(&argv, format("-I%s", opts->pp->include_dirs.data[j]));
    for (int j = 0; j < opts->pp->defines.len; j++)
      strarray_push(&argv, format("-D%s", opts->pp->defines.data[j]));
    strarray_push(&argv, format("-I%s", inc));
    char *obj = format("%s.o", sources->data[i]);
    strarray_push(&argv, "-c");
    strarray_push(&argv, sources->data[i]);
    strarray_push(&argv, "-o");
    strarray_push(&argv, obj);
    if (run(&argv, opts->verbose))
      return 1;
    strarray_push(&objects, obj);
  }
  StrArray argv = {0};
  push_words(&argv, compiler_for(any_cxx));
  push_common(&argv, opts);
  for (int i = 0; i < objects.len; i++)
    strarray_push(&argv, objects.data[i]);
  strarray_push(&argv, lib);
  strarray_push(&argv, "-lm");
  strarray_push(&argv, "-o");
  strarray_push(&argv, (char *)opts->output);
  return run(&argv, opts->verbose);
}
