/* hl_geometry.c: a configuration's geometry from boards/ (libboards.a), so
 * one library serves a tile, a board and a box alike (hostlink.h). */
#include "board_config.h"
#include "hl_internal.h"

#include <stdio.h>

int hl_geometry_load(const char *config, hl_geometry *g, char *err, size_t errlen) {
  static const char *const keys[] = { "MeshXLen", "MeshYLen", "MeshXBits", "MeshYBits", "MeshXBitsWithinBox",
                                      "LogCoresPerBoard", "LogCoresPerDRAM", "RoutingKeyBit", "LogThreadsPerCore" };
  enum { NKEYS = sizeof keys / sizeof keys[0] };
  BoardConfig *cfg = board_config_load(config, err, errlen);
  if (!cfg) return -1;
  long long v[NKEYS];
  for (int i = 0; i < NKEYS; i++)
    if (board_config_get_int(cfg, keys[i], &v[i], err, errlen)) {
      board_config_free(cfg);
      return -1;
    }
  board_config_free(cfg);
  /* The per-core facts are compiled in (hostlink.h): a configuration with
     another core cannot use this build of the library. */
  if (v[8] != TinselLogThreadsPerCore) {
    snprintf(err, errlen, "%s: LogThreadsPerCore %lld, but libhostlink is built for %d", config, v[8],
             TinselLogThreadsPerCore);
    return -1;
  }
  *g = (hl_geometry){ (int)v[0], (int)v[1], (int)v[2], (int)v[3], (int)v[4], (int)v[5], (int)v[6], (uint32_t)v[7] };
  return 0;
}
