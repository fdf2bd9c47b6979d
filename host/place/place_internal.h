/* place_internal.h: the graph's representation and helpers shared by the
 * files of libop2_place (graph.c, place.c, partition.c, route.c, ...). */
#ifndef PLACE_INTERNAL_H
#define PLACE_INTERNAL_H

#include "place.h"

#define PLACE_MAX_TYPES 256
#define PLACE_MAX_PINS 1024
#define PLACE_NO_KEY 0xffffu     /* softswitch.h SS_NO_KEY */
#define PLACE_MAX_KEYS 0xfe00u   /* keys are 16-bit, below the softswitch's reserved ones (SS_END_PIN_BASE) */

typedef struct {
  char *name;
  uint32_t count, first, state_bytes, props_bytes;
  int num_out_pins, group, image_index; /* image_index: position within its group */
  int host_out_mask_set;
  uint32_t host_out_mask;  /* output pins that go to the host */
} PlaceType;

typedef struct {
  char *name;
  int type;
  uint32_t elem_bytes;
} PlaceDat;

typedef struct {
  int src_type, out_pin, dst_type, in_pin;
  uint32_t msg_bytes, edge_bytes;
  /* edges as added; sorted into CSR by source at place_run */
  uint32_t *src, *dst, *label;
  size_t n, cap;
  uint32_t *first;  /* [count(src_type)+1] after place_finish_edges */
} PlacePin;

typedef struct {
  int type, in_pin, key;
  uint8_t *part;           /* [count] 1: the device is in the in-group; NULL: every device */
} PlaceHostPin;

struct PlaceGraph {
  PlaceType types[PLACE_MAX_TYPES];
  int ntypes, ngroups;
  PlacePin *pins;
  int npins;
  PlaceDat *dats;
  int ndats;
  PlaceHostPin host_in[PLACE_MAX_PINS];
  int nhost_in;
  int nhost_keys;          /* keys 0..nhost_keys-1 are the host's on every thread */
  uint32_t ndevices;
  /* undirected adjacency of devices, built at place_run */
  uint32_t *adj_first, *adj;
  int finished;
  char err[1024];
};

/* graph.c */
int place_fail(PlaceGraph *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int place_type_of(const PlaceGraph *g, uint32_t device);
int place_finish_edges(PlaceGraph *g);   /* CSR per pin and the adjacency */
void *place_xalloc(size_t n, size_t size); /* calloc or exit with a message */

/* image.c: the limits of the softswitch layout (the one file that knows it). */
uint32_t place_layout_payload_limit(const PlaceMachine *m); /* message payload bytes */
uint32_t place_layout_state_budget(const PlaceMachine *m);  /* image bytes for devices */
uint32_t place_layout_device_bytes(const PlaceType *t);     /* per device, tables aside */
uint32_t place_layout_max_devices(void);                    /* devices per thread */

/* units.c */
int place_check_sizes(PlaceGraph *g, const PlaceMachine *m);
int place_assign_units(PlaceGraph *g, const PlaceMachine *m, uint32_t maxdev, int *unit_group);

/* partition.c: METIS over a subset of devices. VERTS[0..n) are device ids;
 * CON[i] is vertex i's constraint (0..ncon-1); TPW[part*ncon+c] are target
 * weights (NULL: equal). Writes PART[i]. LOCAL is a scratch map of
 * ndevices entries, all -1 on entry and on return. */
int place_partition(PlaceGraph *g, const uint32_t *verts, uint32_t n, int nparts,
                    const int *con, int ncon, uint32_t seed, int32_t *local, int *part);

/* Orders the cells of a W x H mesh so that each half of the order (and each
 * half of a half, ...) is compact, matching METIS's recursive bisection
 * (part p goes to cell order[p]). */
void place_mesh_order(int w, int h, int *order);

/* progrouter.c: records and tables. */
enum { PLACE_URM1, PLACE_URM2, PLACE_RR, PLACE_MRM, PLACE_IND }; /* record tags */
typedef struct {
  int tag, mbox, thread, dir; /* mbox: {Y,X} on the board; dir: N=0 S=1 E=2 W=3 */
  uint64_t key, mask;         /* local or new key; MRM thread mask */
} PlaceRecord;
int place_record_chunks(const PlaceRecord *r);               /* 1 or 2 (96-bit) */
void place_beat_put(uint8_t *beat, int pos, const PlaceRecord *r); /* at chunk POS from the top */

typedef struct {
  int board_mbox;  /* destination mailbox on the destination board (MRM) */
  uint64_t mask;
  uint16_t key;
  int board;       /* destination board */
} PlaceRemote;
/* Routes REMOTES (all on other boards than FROM_BOARD) from FROM_BOARD:
 * X first, then Y; returns the key for the sender's board. */
int place_route_remote(PlaceGraph *g, const PlaceMachine *m, PlaceRoutes *r, int from_board,
                       PlaceRemote *remotes, size_t n, uint32_t *key);

#endif
