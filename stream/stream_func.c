// stream_func.c: the functional engine (stream_func.h).
#include "stream_func.h"

#define PINS 16u

static uint32_t ring[STREAM_FUNC_PARTS][STREAM_FUNC_PARTS][STREAM_FUNC_RING][STREAM_MSG_WORDS];
static uint32_t head[STREAM_FUNC_PARTS][STREAM_FUNC_PARTS], count[STREAM_FUNC_PARTS][STREAM_FUNC_PARTS];

int stream_func_run(stream_graph *g, uint32_t parts, uint64_t seed, stream_func_stats *st) {
  stream_pin pins[STREAM_FUNC_PARTS][PINS];
  uint32_t np[STREAM_FUNC_PARTS];
  *st = (stream_func_stats){0, 0, 0};
  if (parts < 1 || parts > STREAM_FUNC_PARTS) return 1;
  for (uint32_t a = 0; a < parts; a++) {
    np[a] = stream_pins(&g[a], pins[a], PINS);
    for (uint32_t b = 0; b < parts; b++) head[a][b] = count[a][b] = 0;
  }
  uint64_t rng = seed * 2654435761u + 88172645463325252ull;
  for (uint32_t p = 0; p < parts; p++) stream_schedule(&g[p]);
  for (; st->steps < 100000000; st->steps++) {
    // choices: the oldest message of a pair, or a pin with something to send
    uint32_t kind[STREAM_FUNC_PARTS * (STREAM_FUNC_PARTS + PINS)], x[sizeof kind / 4], y[sizeof kind / 4], nc = 0;
    for (uint32_t a = 0; a < parts; a++)
      for (uint32_t b = 0; b < parts; b++)
        if (count[a][b]) kind[nc] = 0, x[nc] = a, y[nc++] = b;
    for (uint32_t p = 0; p < parts; p++)
      for (uint32_t k = 0; k < np[p]; k++)
        if (stream_pending(&g[p], &pins[p][k]) && count[p][pins[p][k].dest] < STREAM_FUNC_RING)
          kind[nc] = 1, x[nc] = p, y[nc++] = k;
    if (!nc) return 0;
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    uint32_t c = (uint32_t)(rng % nc), a = x[c];
    if (kind[c] == 0) {
      uint32_t b = y[c];
      stream_apply(&g[b], ring[a][b][head[a][b]]);
      head[a][b] = (head[a][b] + 1) % STREAM_FUNC_RING, count[a][b]--;
      stream_schedule(&g[b]);
    } else {
      const stream_pin *pin = &pins[a][y[c]];
      uint32_t d = pin->dest;
      stream_pack(&g[a], pin, ring[a][d][(head[a][d] + count[a][d]) % STREAM_FUNC_RING]);
      st->msgs++;
      if (++count[a][d] > st->pair_max) st->pair_max = count[a][d];
    }
  }
  return 1;
}
