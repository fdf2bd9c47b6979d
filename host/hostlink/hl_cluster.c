/* hl_cluster.c: reaching a multi-box cluster as Tinsel's HostLink does
 * (hostlink.h hl_open_cluster; tinsel.md §11): which box this machine is,
 * by its hostname among the configuration's BoxHosts; a TCP DebugLink to
 * boardctrld (port 10101) on every box of the sub-mesh used, with each
 * box's board offset and the sandbox config in QueryIn; the host link to
 * the local pciestreamd. */
#define _GNU_SOURCE
#include "board_config.h"
#include "hl_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NAME_MAX_BYTES = 64 };
static const char PCIESTREAM[] = "unix:@pciestream";

/* The configuration's facts the cluster needs. */
typedef struct {
  long long box_x, box_y, within_x, within_y, mesh_x_bits, mesh_y_bits;
  char names[HL_MAX_BOXES][NAME_MAX_BYTES];
  int nnames;
} cluster_cfg;

static int read_cfg(const char *config, cluster_cfg *c, char *err, size_t errlen) {
  static const char *const keys[] = { "BoxMeshXLen", "BoxMeshYLen", "MeshXLenWithinBox", "MeshYLenWithinBox",
                                      "MeshXBits", "MeshYBits" };
  long long *v[] = { &c->box_x, &c->box_y, &c->within_x, &c->within_y, &c->mesh_x_bits, &c->mesh_y_bits };
  BoardConfig *cfg = board_config_load(config, err, errlen);
  if (!cfg) return -1;
  for (int i = 0; i < 6; i++)
    if (board_config_get_int(cfg, keys[i], v[i], err, errlen)) {
      board_config_free(cfg);
      return -1;
    }
  const char *hosts = board_config_str(cfg, "BoxHosts");
  char list[HL_MAX_BOXES * NAME_MAX_BYTES];
  snprintf(list, sizeof list, "%s", hosts ? hosts : "");
  board_config_free(cfg);
  c->nnames = 0;
  for (char *save = NULL, *t = strtok_r(list, " \t{}", &save); t; t = strtok_r(NULL, " \t{}", &save)) {
    if (c->nnames == HL_MAX_BOXES) {
      snprintf(err, errlen, "%s: more than %d BoxHosts", config, HL_MAX_BOXES);
      return -1;
    }
    if (hl_box_name(t, c->names[c->nnames], sizeof c->names[0], err, errlen)) return -1;
    c->nnames++;
  }
  if (c->box_x < 1 || c->box_y < 1 || c->box_x * c->box_y > HL_MAX_BOXES || c->within_x < 1 || c->within_y < 1) {
    snprintf(err, errlen, "%s: a %lld x %lld box mesh of %lld x %lld boards: want 1..%d boxes of at least one board",
             config, c->box_x, c->box_y, c->within_x, c->within_y, HL_MAX_BOXES);
    return -1;
  }
  if (c->nnames != c->box_x * c->box_y) {
    snprintf(err, errlen, "%s: BoxHosts names %d boxes, but the box mesh is %lld x %lld", config, c->nnames, c->box_x,
             c->box_y);
    return -1;
  }
  return 0;
}

hostlink *hl_open_cluster(const hl_cluster *cl, char *err, size_t errlen) {
  if (!cl || !cl->config) {
    snprintf(err, errlen, "hl_open_cluster: no configuration named");
    return NULL;
  }
  cluster_cfg c;
  if (read_cfg(cl->config, &c, err, errlen)) return NULL;
  /* This machine: its hostname (or the override) must be a box's. */
  char raw[256], me[NAME_MAX_BYTES];
  const char *hn = cl->hostname ? cl->hostname : getenv("HOSTLINK_HOSTNAME");
  if (!hn) {
    if (gethostname(raw, sizeof raw - 1)) {
      snprintf(err, errlen, "hl_open_cluster: gethostname failed");
      return NULL;
    }
    raw[sizeof raw - 1] = 0;
    hn = raw;
  }
  if (hl_box_name(hn, me, sizeof me, err, errlen)) return NULL;
  int my_x = -1, my_y = -1;
  for (int i = 0; i < c.nnames; i++)
    if (!strcmp(c.names[i], me)) my_x = i % (int)c.box_x, my_y = i / (int)c.box_x;
  if (my_x < 0) {
    size_t n = (size_t)snprintf(err, errlen, "hl_open_cluster: this machine, \"%s\", is none of %s's boxes (", me,
                                cl->config);
    for (int i = 0; i < c.nnames && n < errlen; i++)
      n += (size_t)snprintf(err + n, errlen - n, "%s%s", i ? " " : "", c.names[i]);
    if (n < errlen) snprintf(err + n, errlen - n, "); set HOSTLINK_HOSTNAME to act as one");
    return NULL;
  }
  int bx = cl->boxes_x > 0 ? cl->boxes_x : 1, by = cl->boxes_y > 0 ? cl->boxes_y : 1;
  if (my_x != 0) {
    snprintf(err, errlen, "hl_open_cluster: box %s is at box X %d; the first box of the boxes used must have X 0", me,
             my_x);
    return NULL;
  }
  if (bx > c.box_x || my_y + by > c.box_y) {
    snprintf(err, errlen, "hl_open_cluster: %d x %d boxes from %s (box %d, %d) do not fit the %lld x %lld box mesh", bx,
             by, me, my_x, my_y, c.box_x, c.box_y);
    return NULL;
  }
  if (bx * c.within_x > 1LL << c.mesh_x_bits || by * c.within_y > 1LL << c.mesh_y_bits || bx * c.within_x > 16 ||
      by * c.within_y > 16) {
    snprintf(err, errlen, "hl_open_cluster: %lld x %lld boards do not fit the thread address (MeshXBits %lld, "
             "MeshYBits %lld) or QueryIn's offsets", bx * c.within_x, by * c.within_y, c.mesh_x_bits, c.mesh_y_bits);
    return NULL;
  }
  hl_geometry g;
  if (hl_geometry_load(cl->config, &g, err, errlen)) return NULL;
  g.boards_x = bx * (int)c.within_x;
  g.boards_y = by * (int)c.within_y;
  hl_box *boxes = calloc((size_t)(bx * by), sizeof *boxes);
  if (!boxes) {
    snprintf(err, errlen, "hl_open_cluster: out of memory");
    return NULL;
  }
  const char *map = cl->box_addrs ? cl->box_addrs : getenv("HOSTLINK_BOX_ADDRS");
  for (int y = 0; y < by; y++)
    for (int x = 0; x < bx; x++) {
      hl_box *b = &boxes[y * bx + x];
      const char *name = c.names[(my_y + y) * c.box_x + (my_x + x)];
      if (hl_box_lookup(map, name, b->addr, sizeof b->addr, err, errlen)) {
        free(boxes);
        return NULL;
      }
      b->fd = -1;
      b->bridge = -1;
      b->within_x = (int)c.within_x;
      b->within_y = (int)c.within_y;
      b->off_x = x * (int)c.within_x;
      b->off_y = y * (int)c.within_y;
      b->links = (int)(c.within_x * c.within_y) + 1;   /* the workers and the bridge */
      /* The sandbox HostLink asks for: the links toward boxes outside the
         boxes used are off: north of the top row, south of the bottom
         row, and east of a one-box-wide column (it starts at box X 0, whose
         west side has no box). */
      b->config = (y == by - 1 ? HL_LINKS_NORTH : 0) | (y == 0 ? HL_LINKS_SOUTH : 0) | (bx == 1 ? HL_LINKS_EAST : 0) |
                  (cl->extra_send_slot ? HL_EXTRA_SEND_SLOT : 0);
    }
  const char *host = cl->host ? cl->host : getenv("HOSTLINK_HOST");
  hostlink *h = hl_open_boxes(host ? host : PCIESTREAM, &g, boxes, bx * by, err, errlen);
  free(boxes);
  return h;
}
