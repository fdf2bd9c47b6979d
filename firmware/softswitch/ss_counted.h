// ss_counted.h: counted events (seeds/002): a count of otherwise unordered
// posts and a target; the post that brings the count to the target fires the
// event and takes the target off the count, so the event is reusable round
// after round and a post that arrives before the waiter is "armed" is not
// lost. Header-only, so the softswitch, the host's functional engine and the
// host unit tests (tests/tinsel/counted_test.c) share one definition.
#ifndef SS_COUNTED_H
#define SS_COUNTED_H

#include <stdint.h>

typedef struct {
  uint32_t count;   // posts since the event last fired
  uint32_t target;  // posts that fire it (>= 1)
} ss_counted;

static inline void ss_counted_init(ss_counted *e, uint32_t target) {
  e->count = 0;
  e->target = target;
}

// One post; non-zero when this post fires the event. A target of 0 would
// never fire: treat it as 1 (a waiter with nothing to wait for fires at once
// on its first post).
static inline int ss_counted_post(ss_counted *e) {
  uint32_t target = e->target ? e->target : 1;
  if (++e->count < target)
    return 0;
  e->count -= target;
  return 1;
}

// Posts still missing before the event fires.
static inline uint32_t ss_counted_missing(const ss_counted *e) {
  uint32_t target = e->target ? e->target : 1;
  return target - e->count;
}

#endif
