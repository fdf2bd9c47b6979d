// tree_dev.c: the tree app's one device type, "node" (apps/tree/tree.h),
// for the softswitch: linked into the firmware (tree_fw.c) and into the
// host's softswitch engine (tree.c), the same code in both.
//
// OnInit arms the node's wait: EVENT WAIT (UNTIL_COUNT = nc) on its counted
// event. A leaf (nc 0) does not wait: J3/14-104 makes UNTIL_COUNT 0 a wait
// for one post, which no child would make, so the leaf is ready at once.
// Each child's message is an EVENT POST (ss_event_post) after its data is
// folded in; the post that completes the wait makes the node ready, and it
// sends its result to its parent (pin 0), or reports it at the root. At
// the end (OnHardwareIdle, when nothing moves any more) a node whose event
// is not quiet got more or fewer posts than children: it reports that.
#include <string.h>

#include "softswitch.h"
#include "tree.h"

#define TREE_REPORTED 0x80000000u

// After ss_event_wait or ss_event_post returned R: an error is recorded; a
// completed wait makes the node ready to send (the root reports instead).
static void waited(const tree_props *p, tree_state *s, int r) {
  if (r < 0)
    s->errors |= TREE_ERR_OVER;
  if (r != SS_EVENT_FIRED)
    return;
  s->out = tree_result(p, s);
  s->state = TREE_READY;
  if (p->root) {
    tree_report_root(p, &s->out);
    s->state = TREE_SENT;
  }
}

static void node_init(const void *gp, const void *props, void *state) {
  (void)gp;
  const tree_props *p = props;
  tree_state *s = state;
  memset(s, 0, sizeof(*s));
  ss_event_init(&s->done);
  waited(p, s, p->nc ? ss_event_wait(&s->done, p->nc) : SS_EVENT_FIRED);
}

static uint32_t node_rts(const void *gp, const void *props, const void *state) {
  (void)gp, (void)props;
  return ((const tree_state *)state)->state == TREE_READY;
}

static int node_send(const void *gp, const void *props, void *state, void *payload) {
  (void)gp;
  tree_state *s = state;
  memcpy(payload, &s->out, sizeof(tree_msg));
  const tree_props *p = props;
  s->state = p->extra == 1 && ++s->sends < 2 ? TREE_READY : TREE_SENT;
  return p->extra != 2; // --missing-post: the send is cancelled
}

static void node_recv(const void *gp, const void *props, void *state, const void *edge_props, const void *payload) {
  (void)gp, (void)edge_props;
  const tree_props *p = props;
  tree_state *s = state;
  tree_msg m;
  memcpy(&m, payload, sizeof(m));
  tree_fold(s, &m);
  waited(p, s, ss_event_post(&s->done));  // the child's EVENT POST, remote or local
}

static int node_idle(const void *gp, const void *props, void *state) {
  (void)gp;
  tree_state *s = state;
  if (ss_event_waiting(&s->done))
    s->errors |= TREE_ERR_SHORT;
  else if (ss_event_count(&s->done))
    s->errors |= TREE_ERR_EXCESS;
  if ((s->errors & ~TREE_REPORTED) && !(s->errors & TREE_REPORTED)) {
    tree_report_error(props, s);
    s->errors |= TREE_REPORTED;
  }
  return 0;
}

static const ss_send_fn node_sends[] = {node_send};
static const uint8_t node_out_bytes[] = {sizeof(tree_msg)};
static const ss_recv_fn node_recvs[] = {node_recv};
const ss_dev_type ss_dev_types[] = {
    {.num_in_pins = 1, .num_out_pins = 1, .init = node_init, .rts = node_rts, .idle = node_idle,
     .send = node_sends, .out_bytes = node_out_bytes, .recv = node_recvs},
};
const uint32_t ss_num_dev_types = 1;
