// ss_counted.h: counted events (seeds/002, J3/14-104). One implementation,
// header-only, so the softswitch, the host's engines, the apps (apps/tree)
// and the host unit tests (tests/tinsel/counted_test.c, tests/tree) share it.
//
// An event has a count of otherwise unordered posts. EVENT POST adds 1.
// EVENT WAIT (UNTIL_COUNT = n; n <= 0 means 1) is, in J3/14-104's words
// with Nick Maclaren's amendment:
//   (*) if the count already exceeds the threshold n: an error;
//   (2) wait until the count reaches n;
//   (3) then decrease the count by n.
// The threshold is not part of the event: outside a wait it is "at least
// HUGE(0)" (here: a post that would wrap the 32-bit count is the error).
// On a thread nothing blocks, so a wait is ARMED (ss_event_wait) and the
// post that brings the count to the threshold completes it
// (ss_event_post returns SS_EVENT_FIRED). Posts before the wait are kept.
// Posts after a wait completed are counted again (J3: "unlikely [that] the
// implementation can detect incorrect excess posts"); ss_event_quiet tells
// at the end whether every post was taken by a wait: the multifrontal
// tree (apps/tree) uses it to report a node that got more posts than it
// had children.
//
// ss_counted_init/post/missing are the same primitive with a wait that
// re-arms itself after it completes (EVENT WAIT in a loop): the OP2 tree of
// thread ends (ss_tree.h) fires once per round, and a post that arrives
// before its round's waiter is not lost.
//
// The struct stays 8 bytes (ss_tree_node's layout is in softswitch.h): the
// threshold and two flags share `target`.
#ifndef SS_COUNTED_H
#define SS_COUNTED_H

#include <stdint.h>

typedef struct {
  uint32_t count;   // posts not yet taken by a wait
  uint32_t target;  // the armed wait's UNTIL_COUNT << 2 | SS_EVENT_WAITING | SS_EVENT_REARM
} ss_counted;

#define SS_EVENT_THRESHOLD 0x3fffffffu  // largest UNTIL_COUNT
#define SS_EVENT_WAITING   1u           // a wait is armed
#define SS_EVENT_REARM     2u  // ss_counted_*: the wait re-arms itself when it completes

// Outcomes of ss_event_post and ss_event_wait.
enum {
  SS_EVENT_PENDING = 0,   // the wait (if any) is still waiting
  SS_EVENT_FIRED = 1,     // a wait completed: its threshold was taken off the count
  SS_EVENT_OVER = -1,     // error: the count exceeds the threshold (the count is unchanged)
  SS_EVENT_BAD_COUNT = -2 // error: UNTIL_COUNT above SS_EVENT_THRESHOLD
};

// No posts, no wait.
static inline void ss_event_init(ss_counted *e) {
  e->count = 0;
  e->target = 0;
}

// EVENT POST: one post, local (a handler of this thread) or remote (on
// receipt of a message). SS_EVENT_FIRED when it completes the armed wait.
static inline int ss_event_post(ss_counted *e) {
  uint32_t t = e->target, c = e->count + 1, n = t >> 2;
  if (!(t & SS_EVENT_WAITING) || c < n) {
    if (!c)  // beyond the default threshold (only without a wait: c <= n with one)
      return SS_EVENT_OVER;
    e->count = c;
    return SS_EVENT_PENDING;
  }
  e->count = c - n;  // c == n: a wait armed with count > n was refused
  if (!(t & SS_EVENT_REARM))
    e->target = 0;
  return SS_EVENT_FIRED;
}

// EVENT WAIT (UNTIL_COUNT = until; 0 means 1): SS_EVENT_OVER when the
// count already exceeds it (nothing changes), SS_EVENT_FIRED when the count
// is exactly it (taken at once), else the wait is armed: SS_EVENT_PENDING.
// A wait armed while another is pending replaces it.
static inline int ss_event_wait(ss_counted *e, uint32_t until) {
  if (until > SS_EVENT_THRESHOLD)
    return SS_EVENT_BAD_COUNT;
  uint32_t n = until ? until : 1;
  if (e->count > n)
    return SS_EVENT_OVER;
  if (e->count == n) {
    e->count = 0;
    e->target = 0;
    return SS_EVENT_FIRED;
  }
  e->target = n << 2 | SS_EVENT_WAITING;
  return SS_EVENT_PENDING;
}

// EVENT_QUERY: posts not yet taken by a wait.
static inline uint32_t ss_event_count(const ss_counted *e) { return e->count; }
// A wait is armed and not complete.
static inline int ss_event_waiting(const ss_counted *e) { return (e->target & SS_EVENT_WAITING) != 0; }
// Every post was taken by a wait and no wait is pending (the end of a run).
static inline int ss_event_quiet(const ss_counted *e) { return e->count == 0 && !ss_event_waiting(e); }

// ---- the self-re-arming wait (ss_tree.h): EVENT WAIT (UNTIL_COUNT = target) in a loop.

static inline void ss_counted_init(ss_counted *e, uint32_t target) {
  ss_event_init(e);
  // a waiter with nothing to wait for fires on its first post
  e->target = (target + !target) << 2 | SS_EVENT_WAITING | SS_EVENT_REARM;
}

// One post; non-zero when this post fires the event.
static inline int ss_counted_post(ss_counted *e) { return ss_event_post(e) == SS_EVENT_FIRED; }

// Posts still missing before the event fires.
static inline uint32_t ss_counted_missing(const ss_counted *e) {
  return (e->target >> 2) - e->count;
}

#endif
