/*
 * engines.c: the engines a tinsel executable can run its invocations on,
 * chosen by OP2_TINSEL_ENGINE (default: the first). One line per engine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2t_internal.h"

const op2t_engine *const op2t_engines[] = {
    &op2t_engine_functional,
    &op2t_engine_softswitch,
    &op2t_engine_sim,
    &op2t_engine_hostlink,
    NULL,
};

static const op2t_engine *chosen;

const op2t_engine *op2t_choose_engine(void) {
  const char *name = getenv("OP2_TINSEL_ENGINE");
  chosen = op2t_engines[0];
  if (!name || !*name)
    return chosen;
  for (int i = 0; op2t_engines[i]; i++)
    if (!strcmp(op2t_engines[i]->name, name))
      return chosen = op2t_engines[i];
  fprintf(stderr, "op2 tinsel: error: OP2_TINSEL_ENGINE=%s: no such engine; the engines are:\n", name);
  for (int i = 0; op2t_engines[i]; i++)
    fprintf(stderr, "  %-12s %s\n", op2t_engines[i]->name, op2t_engines[i]->what);
  exit(1);
}

const op2t_engine *op2t_current_engine(void) { return chosen ? chosen : op2t_engines[0]; }

void op2t_engine_finish(void) {
  static int done;
  op2t_devout_flush();
  if (chosen && !done && chosen->finish) {
    done = 1;
    chosen->finish();
  }
}
