// ss_demo_types.c: a hand-written device-type table in the form the
// compiler generates (softswitch.h), so the softswitch image builds and its
// size can be measured, and the model tests have devices. Type 0, "counter":
// sends its count on pin 0 until it reaches its limit, and adds up what it
// receives; type 1, "echo": the same, but only while it holds the ball.
#include "softswitch.h"

typedef struct { uint32_t limit; } counter_props;
typedef struct { uint32_t sent, received, sum; } counter_state;
typedef struct { uint32_t value; } counter_msg;

static void counter_init(const void *gp, const void *props, void *state) {
  (void)gp; (void)props;
  counter_state *s = state;
  s->sent = s->received = s->sum = 0;
}

static uint32_t counter_rts(const void *gp, const void *props, const void *state) {
  (void)gp;
  const counter_props *p = props;
  const counter_state *s = state;
  return s->sent < p->limit ? 1u : 0u;
}

static int counter_send(const void *gp, const void *props, void *state, void *payload) {
  (void)gp; (void)props;
  counter_state *s = state;
  ((counter_msg *)payload)->value = s->sent++;
  return 1;
}

static void counter_recv(const void *gp, const void *props, void *state,
                         const void *edge_props, const void *payload) {
  (void)gp; (void)props; (void)edge_props;
  counter_state *s = state;
  s->received++;
  s->sum += ((const counter_msg *)payload)->value;
}

static const ss_send_fn counter_sends[] = { counter_send };
static const uint8_t counter_out_bytes[] = { sizeof(counter_msg) };
static const ss_recv_fn counter_recvs[] = { counter_recv };

// "echo": passes a ball back and forth (ping-pong): it sends only while it
// holds the ball, at most `limit` times, and a message gives it the ball.
typedef struct { uint32_t limit, start; } echo_props;   // counter_props is a prefix
typedef struct { uint32_t sent, received, sum, ball; } echo_state;

static void echo_init(const void *gp, const void *props, void *state) {
  (void)gp;
  echo_state *s = state;
  s->sent = s->received = s->sum = 0;
  s->ball = ((const echo_props *)props)->start;
}

static uint32_t echo_rts(const void *gp, const void *props, const void *state) {
  (void)gp;
  const echo_state *s = state;
  return s->ball && s->sent < ((const echo_props *)props)->limit;
}

static int echo_send(const void *gp, const void *props, void *state, void *payload) {
  echo_state *s = state;
  s->ball = 0;
  return counter_send(gp, props, state, payload);
}

static void echo_recv(const void *gp, const void *props, void *state,
                      const void *edge_props, const void *payload) {
  ((echo_state *)state)->ball = 1;
  counter_recv(gp, props, state, edge_props, payload);
}

static const ss_send_fn echo_sends[] = { echo_send };
static const ss_recv_fn echo_recvs[] = { echo_recv };

const ss_dev_type ss_dev_types[] = {
  { .num_in_pins = 1, .num_out_pins = 1, .init = counter_init, .rts = counter_rts,
    .send = counter_sends, .out_bytes = counter_out_bytes, .recv = counter_recvs },
  { .num_in_pins = 1, .num_out_pins = 1, .init = echo_init, .rts = echo_rts,
    .send = echo_sends, .out_bytes = counter_out_bytes, .recv = echo_recvs },
};
const uint32_t ss_num_dev_types = sizeof ss_dev_types / sizeof ss_dev_types[0];
