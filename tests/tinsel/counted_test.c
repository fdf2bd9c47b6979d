// counted_test: the counted event (firmware/softswitch/ss_counted.h) and
// the tree of threads that folds ends (ss_tree.h), on the host. Prints one
// line per check ("ok NAME" or "FAIL NAME: why") and exits non-zero on any
// failure.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ss_tree.h"

// ss_tree.h's table, unused here (the tests pass their fold directly).
const ss_combine_fn ss_end_combine[1] = {NULL};
const uint32_t ss_num_invocations = 0;

static int failures;
static void check(int ok, const char *name, const char *why) {
  printf("%s %s%s%s\n", ok ? "ok" : "FAIL", name, ok ? "" : ": ", ok ? "" : why);
  failures += !ok;
}

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(uint32_t n) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (uint32_t)(rng % n);
}

// An end message as op2c lays one out: round, contributes, then globals.
typedef struct {
  uint32_t round;
  uint8_t contributes;
  int32_t sum[1], min[1], max[1];
} End;

static void fold(void *acc_, const void *in_) {
  End *acc = acc_;
  const End *in = in_;
  acc->sum[0] += in->sum[0];
  if (in->min[0] < acc->min[0]) acc->min[0] = in->min[0];
  if (in->max[0] > acc->max[0]) acc->max[0] = in->max[0];
}

static void counted_event(void) {
  ss_counted e;
  ss_counted_init(&e, 5);
  int fired = 0, at = -1;
  for (int i = 0; i < 15; i++)
    if (ss_counted_post(&e)) {
      if (at < 0) at = i;
      fired++;
    }
  check(at == 4 && fired == 3 && e.count == 0, "counted: fires on the 5th post, 3 times in 15 posts", "");
  ss_counted_init(&e, 3);
  ss_counted_post(&e);
  check(ss_counted_missing(&e) == 2 && e.count == 1, "counted: missing posts", "");
  ss_counted_init(&e, 0);
  check(ss_counted_post(&e) == 1, "counted: target 0 fires on the first post", "");
}


// J3/14-104's EVENT POST / EVENT WAIT (UNTIL_COUNT) semantics.
static void event_wait_semantics(void) {
  ss_counted e;
  ss_event_init(&e);
  check(ss_event_quiet(&e) && !ss_event_waiting(&e), "event: a new event is quiet", "");
  // Posts before the wait are kept; the wait takes exactly its threshold.
  check(ss_event_post(&e) == SS_EVENT_PENDING && ss_event_post(&e) == SS_EVENT_PENDING && ss_event_count(&e) == 2,
        "event: posts without a wait accumulate", "");
  check(ss_event_wait(&e, 3) == SS_EVENT_PENDING && ss_event_waiting(&e), "event: wait(3) with count 2 waits", "");
  check(ss_event_post(&e) == SS_EVENT_FIRED && ss_event_count(&e) == 0 && ss_event_quiet(&e),
        "event: the 3rd post completes wait(3), count back to 0, threshold back to default", "");
  check(ss_event_post(&e) == SS_EVENT_PENDING && !ss_event_quiet(&e),
        "event: a post after the wait completed is counted, not quiet", "");
  // Count exactly the threshold at the wait: taken at once.
  ss_event_init(&e);
  for (int i = 0; i < 4; i++)
    ss_event_post(&e);
  check(ss_event_wait(&e, 4) == SS_EVENT_FIRED && ss_event_quiet(&e), "event: wait(4) with count 4 completes at once",
        "");
  // The error: the count exceeds the threshold (Maclaren's step (*)).
  ss_event_init(&e);
  for (int i = 0; i < 5; i++)
    ss_event_post(&e);
  check(ss_event_wait(&e, 3) == SS_EVENT_OVER && ss_event_count(&e) == 5 && !ss_event_waiting(&e),
        "event: wait(3) with count 5 is an error, nothing changes", "");
  check(ss_event_wait(&e, 5) == SS_EVENT_FIRED && ss_event_quiet(&e), "event: then wait(5) takes all 5", "");
  // UNTIL_COUNT 0 (J3: not positive) means 1; too large is refused.
  ss_event_init(&e);
  check(ss_event_wait(&e, 0) == SS_EVENT_PENDING && ss_event_post(&e) == SS_EVENT_FIRED,
        "event: wait(0) is wait(1)", "");
  check(ss_event_wait(&e, SS_EVENT_THRESHOLD + 1u) == SS_EVENT_BAD_COUNT, "event: UNTIL_COUNT over the limit refused",
        "");
  // The count cannot wrap (the default threshold is HUGE).
  e.count = UINT32_MAX;
  check(ss_event_post(&e) == SS_EVENT_OVER && e.count == UINT32_MAX, "event: a post beyond HUGE is an error", "");
  // Random interleavings: NC posts and one wait(NC) in every order complete
  // the wait exactly once; one more post leaves the event not quiet.
  int ok = 1;
  for (int trial = 0; trial < 200; trial++) {
    uint32_t nc = 1 + rnd(20), extra = rnd(2), at = rnd(nc + 1 + extra), fired = 0, over = 0;
    ss_event_init(&e);
    for (uint32_t i = 0; i <= nc + extra; i++) {
      int r = i == at ? ss_event_wait(&e, nc) : ss_event_post(&e);
      fired += r == SS_EVENT_FIRED;
      over += r == SS_EVENT_OVER;
    }
    // An extra post before the wait makes the wait an error; after it, the event is not quiet.
    if (extra && at == nc + 1)
      ok &= over == 1 && fired == 0;
    else
      ok &= fired == 1 && over == 0 && ss_event_quiet(&e) == !extra;
  }
  check(ok, "event: 200 random orders of NC posts (+0/1 extra) and wait(NC)", "");
}

static void tree_shape(void) {
  int ok = 1;
  for (uint32_t n = 1; n <= 60; n++)
    for (uint32_t f = 1; f <= 9; f++) {
      uint32_t edges = 0;
      uint32_t *kids = calloc(n, sizeof(uint32_t));
      for (uint32_t i = 1; i < n; i++) {
        uint32_t p = ss_tree_parent(i, f);
        ok &= p < i;
        kids[p]++;
      }
      for (uint32_t i = 0; i < n; i++) {
        ok &= kids[i] == ss_tree_children(i, n, f) && kids[i] <= f;
        edges += kids[i];
      }
      ok &= edges == n - 1;
      free(kids);
    }
  check(ok, "tree: parents before children, children() agrees, n-1 edges, at most fan-in children", "");
}

// N threads holding random numbers of devices, each device an end with a
// random value; ends and child ends posted in random order. The host must get
// one end covering every device, with the sum, min and max of all values.
static void tree_fold(uint32_t n, uint32_t fanin, int trial) {
  uint32_t *own = malloc(n * sizeof(uint32_t)), total = 0;
  ss_tree_node *node = malloc(n * sizeof(ss_tree_node));
  typedef struct { uint32_t node, devices; End end; } Post;
  Post *pending = malloc(sizeof(Post) * 4096);
  int np = 0;
  int32_t sum = 0, mn = 1 << 30, mx = -(1 << 30);
  for (uint32_t i = 0; i < n; i++) {
    own[i] = 1 + rnd(6);
    ss_tree_init(&node[i], own[i], ss_tree_children(i, n, fanin));
    for (uint32_t d = 0; d < own[i]; d++) {
      // some devices (non-iteration types) only count; one always contributes, so the globals are defined
      int contributes = rnd(3) != 0 || (i == 0 && d == 0);
      End e = {7, (uint8_t)contributes, {0}, {0}, {0}};
      int32_t v = (int32_t)rnd(2001) - 1000;
      e.sum[0] = e.min[0] = e.max[0] = v;
      if (contributes) {
        sum += v;
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
      }
      pending[np++] = (Post){i, 1, e};
    }
    total += own[i];
  }
  uint32_t tree_msgs = 0, host_msgs = 0, host_devices = 0;
  End host = {0};
  while (np) {
    int k = (int)rnd((uint32_t)np);
    Post p = pending[k];
    pending[k] = pending[--np];
    ss_tree_node *t = &node[p.node];
    if (!ss_tree_post(t, &p.end, sizeof(End), fold, p.devices))
      continue;
    if (p.node == 0) {
      host_msgs++;
      host_devices += t->devices;
      memcpy(&host, t->acc, sizeof(host));
    } else {
      tree_msgs++;
      Post up = {ss_tree_parent(p.node, fanin), t->devices, {0}};
      memcpy(&up.end, t->acc, sizeof(End));
      pending[np++] = up;
    }
    ss_tree_reset(t);
  }
  char name[128], why[256];
  snprintf(name, sizeof(name), "tree fold: %u threads, fan-in %u, trial %d", n, fanin, trial);
  snprintf(why, sizeof(why), "host %u msgs / %u devices of %u, tree %u msgs, sum %d/%d min %d/%d max %d/%d",
           host_msgs, host_devices, total, tree_msgs, host.sum[0], sum, host.min[0], mn, host.max[0], mx);
  check(host_msgs == 1 && host_devices == total && tree_msgs == n - 1 && host.round == 7 && host.contributes &&
            host.sum[0] == sum && host.min[0] == mn && host.max[0] == mx,
        name, why);
  free(own), free(node), free(pending);
}

static void bad_round(void) {
  ss_tree_node t;
  ss_tree_init(&t, 2, 0);
  End a = {3, 1, {1}, {1}, {1}}, b = {4, 1, {2}, {2}, {2}};
  ss_tree_post(&t, &a, sizeof(End), fold, 1);
  int fired = ss_tree_post(&t, &b, sizeof(End), fold, 1);
  check(fired && t.bad_round, "tree: ends of different rounds are flagged", "");
}

int main(void) {
  counted_event();
  event_wait_semantics();
  tree_shape();
  const uint32_t sizes[][2] = {{1, 8}, {2, 2}, {7, 2}, {64, 2}, {64, 8}, {100, 3}, {300, 16}, {50, 1}};
  for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
    for (int trial = 0; trial < 3; trial++)
      tree_fold(sizes[i][0], sizes[i][1], trial);
  bad_round();
  return failures != 0;
}
