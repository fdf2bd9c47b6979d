// engine_test: the functional engine and the runtime's checks against
// hand-written device types that break the protocol. One device type, one
// invocation with no args; argv[1] picks the behaviour:
//   ok        begin -> end with the begin's round: exit 0
//   livelock  always ready to send, never ends: "a livelock"
//   deadlock  never ends: "a protocol deadlock"
//   round     ends with a wrong round number: "ended round"
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "op_tinsel.h"
#include "softswitch.h"
#include "ss_tree.h"

typedef struct { int32_t index; uint16_t total; } Props;
typedef struct { uint32_t round; uint8_t began; } State;
typedef struct { uint32_t round; uint8_t contributes; } EndMsg;

static enum { OK, LIVELOCK, DEADLOCK, ROUND } mode;

static void on_begin(const void *gp, const void *p, void *s, const void *ep, const void *msg) {
  (void)gp, (void)p, (void)ep;
  State *st = s;
  memcpy(&st->round, msg, sizeof(st->round));
  st->began = 1;
}

static uint32_t rts(const void *gp, const void *p, const void *s) {
  (void)gp, (void)p;
  const State *st = s;
  if (!st->began || mode == DEADLOCK)
    return 0;
  return mode == LIVELOCK ? 1u << 1 : 1u << 0;
}

static int send_end(const void *gp, const void *p, void *s, void *msg) {
  (void)gp, (void)p;
  State *st = s;
  EndMsg *m = msg;
  m->round = st->round + (mode == ROUND);
  m->contributes = 0;
  st->began = 0;
  return 1;
}

static int send_nothing(const void *gp, const void *p, void *s, void *msg) {
  (void)gp, (void)p, (void)s, (void)msg;
  return 0;
}

static const ss_send_fn sends[2] = {send_end, send_nothing};
static const uint8_t out_bytes[2] = {sizeof(EndMsg), 0};
static const ss_recv_fn recvs[1] = {on_begin};
const ss_dev_type ss_dev_types[1] = {
    {.num_in_pins = 1, .num_out_pins = 2, .rts = rts, .send = sends, .out_bytes = out_bytes, .recv = recvs}};
const uint32_t ss_num_dev_types = 1;
static void no_globals(void *acc, const void *in) { (void)acc, (void)in; }
const ss_combine_fn ss_end_combine[1] = {no_globals};
const uint32_t ss_num_invocations = 1;
ss_combine_fn ss_end_combine_of(uint32_t k) { return k < ss_num_invocations ? ss_end_combine[k] : 0; }

static const char *const in_names[] = {"inv_begin", NULL};
static const char *const out_names[] = {"inv_end", "inv_spin", NULL};
static const op2t_type types[1] = {
    {"set_t", "t", sizeof(Props), sizeof(State), offsetof(Props, index), 1, 2, in_names, out_names}};
static const op2t_involved involved[1] = {{0, 0, 0, offsetof(Props, total)}};
static const op2t_invocation inv = {"inv", "k", 0, 0, NULL, 1, involved, 4, sizeof(EndMsg),
                                    offsetof(EndMsg, contributes)};
static const op2t_invocation *const invocations[1] = {&inv};
const op2t_graph op2t_graph_info = {"engine_test", 1, types, 1, 0, NULL, 1, invocations, NULL};
const op2t_code_groups op2t_groups = {0, NULL, NULL, "img_all.elf"}; /* one group (the runtime links images.c) */

int main(int argc, char **argv) {
  const char *names[] = {"ok", "livelock", "deadlock", "round"};
  for (int i = 0; i < 4; i++)
    if (argc > 1 && !strcmp(argv[1], names[i]))
      mode = i;
  op_init(argc, argv, 0);
  op_set s = op_decl_set(50, "t");
  for (int round = 0; round < 3; round++)
    op2t_invoke(&inv, "inv", s, 0, NULL);
  op_exit();
  printf("engine_test %s ok\n", names[mode]);
  return 0;
}
