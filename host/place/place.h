/*
 * place.h: libop2_place, the host's placement and routing library.
 *
 * Input: a graph instance (devices grouped by type, output pins with their
 * edges) and a machine from boards/. Output:
 *   - a placement: every device on one thread, found hierarchically with
 *     METIS (boards, then mailboxes, then threads, as POLite does), with the
 *     device types of one code group alone on each core pair (the pair shares
 *     one instruction memory, which holds only that group's handlers);
 *   - routes: per (device, output pin) a thread-local in-group key, one
 *     hardware multicast per destination mailbox on the sender's board, and a
 *     routing key for the other boards, whose programmable-router records
 *     (tinsel.md §3.3) sit in per-board DRAM tables;
 *   - per-thread images in the softswitch's layout (softswitch.h), built by
 *     image.c alone.
 *
 * Devices are numbered by type: type t owns ids first..first+count-1 in
 * declaration order. Every function that can fail returns -1 (or NULL) and
 * leaves a message naming the sizes and limits in place_error(g).
 */
#ifndef PLACE_H
#define PLACE_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* ------------------------------------------------------------ machine */

/* The geometry and limits of a configuration, read from boards/. */
typedef struct {
  char name[64];
  int boards_x, boards_y, nboards;       /* MeshXLen, MeshYLen */
  int mbox_x, mbox_y, mboxes_per_board;  /* MailboxMeshXLen, MailboxMeshYLen */
  int mesh_x_bits, mbox_x_bits;          /* thread address fields (tinsel.md §2.4) */
  int log_threads_per_board, log_threads_per_mbox;
  int threads_per_core, cores_per_mbox;
  int cores_per_unit;         /* cores sharing an instruction memory (2 with SharedInstrMem) */
  int units_per_mbox, threads_per_unit, threads_per_mbox, threads_per_board;
  int nthreads, nunits;
  uint32_t app_instr_bytes;   /* AppInstrBytes */
  uint32_t bytes_per_msg;     /* BytesPerMsg */
  uint32_t thread_bytes;      /* BytesPerDRAMPartition: a thread image lives there */
  int drams_per_board;        /* DRAMs whose routing tables a key can name */
  int log_beats_per_dram, log_routing_entry_len, log_bytes_per_beat;
  uint32_t router_base;       /* POLiteProgRouterBase: routing tables in DRAM */
  uint32_t router_end;        /* DRAMUpperBase: end of the DRAM globals */
  uint32_t mailbox_routing_key; /* MailboxRoutingKey: SendDest of a key send */
  uint32_t host_mbox;         /* HostId >> LogThreadsPerMailbox */
} PlaceMachine;

/* Loads configuration NAME (a boards/ name or path). */
int place_machine_load(PlaceMachine *m, const char *name, char *err, size_t errlen);

/* Thread index (0..nthreads-1: board, mailbox, unit, thread) <-> hardware. */
uint32_t place_thread_addr(const PlaceMachine *m, uint32_t thread);  /* §2.4 thread id */
uint32_t place_thread_mbox(const PlaceMachine *m, uint32_t thread);  /* its mailbox address */
int place_thread_board(const PlaceMachine *m, uint32_t thread);
int place_thread_unit(const PlaceMachine *m, uint32_t thread);       /* global core-pair index */

/* -------------------------------------------------------------- graph */

typedef struct PlaceGraph PlaceGraph;

PlaceGraph *place_graph_new(void);
void place_graph_free(PlaceGraph *g);
const char *place_error(const PlaceGraph *g);

/* A device type of COUNT devices, each with STATE_BYTES of state and
 * PROPS_BYTES of read-only properties in its thread's image, and
 * NUM_OUT_PINS output pins. GROUP names its code image: the types of one
 * group share a core pair's instruction memory. Returns the type index. */
int place_add_type(PlaceGraph *g, const char *name, uint32_t count, uint32_t state_bytes,
                   uint32_t props_bytes, int num_out_pins, int group);
uint32_t place_device(const PlaceGraph *g, int type, uint32_t index); /* global device id */
uint32_t place_num_devices(const PlaceGraph *g);

/* A dat of a type, for the size check: one element must fit a message. */
int place_add_dat(PlaceGraph *g, int type, const char *name, uint32_t elem_bytes);

/* Output pin OUT_PIN of SRC_TYPE, sending MSG_BYTES of payload to input pin
 * IN_PIN of DST_TYPE devices; each edge may carry a label (an OP2 map index)
 * stored as EDGE_PROPS_BYTES (0, 1, 2 or 4) bytes of edge properties.
 * Returns the pin handle for place_add_edge. */
int place_add_pin(PlaceGraph *g, int src_type, int out_pin, int dst_type, int in_pin,
                  uint32_t msg_bytes, uint32_t edge_props_bytes);
/* An edge of PIN from device SRC to device DST (type-local indices). */
int place_add_edge(PlaceGraph *g, int pin, uint32_t src, uint32_t dst, uint32_t label);

/* An OP2 map from FROM_TYPE to TO_TYPE of ARITY (VALUES[e*arity+k], like
 * op_decl_map): adds edges e -> values[e*arity+k] to FWD_PIN and the reverse
 * edges to REV_PIN (either may be -1), labelled k. Checks the index range. */
int place_add_map_edges(PlaceGraph *g, const char *map_name, int from_type, int to_type,
                        int arity, const int *values, int fwd_pin, int rev_pin);

/* The host's messages into a type's input pin IN_PIN (begin): key
 * place_host_key(...) is reserved on every thread, its in-group is every
 * device of the type on the thread, so one multicast per mailbox reaches
 * them all. Returns the key (the same on every thread). */
int place_add_host_in_pin(PlaceGraph *g, int type, int in_pin);
/* Output pin OUT_PIN of TYPE goes to the host (end, globals). */
int place_add_host_out_pin(PlaceGraph *g, int type, int out_pin);
/* Host keys shared by several (type, pin)s: place_reserve_host_keys(g, N)
 * makes keys 0..N-1 the host's on every thread (in-groups possibly empty);
 * place_add_host_key_pin puts every device of TYPE on input pin IN_PIN into
 * KEY's in-group (OP2: key k = invocation k's begin, for all its types). */
int place_reserve_host_keys(PlaceGraph *g, int n);
int place_add_host_key_pin(PlaceGraph *g, int key, int type, int in_pin);
/* The same for the devices of TYPE with PART[i] non-zero only (PART has one
 * byte per device of the type, copied; NULL: every device). */
int place_add_host_key_pin_part(PlaceGraph *g, int key, int type, int in_pin, const uint8_t *part);
/* The type number written into ss_device.type (default: the position of
 * the type within its code group; OP2 images index by graph type). */
int place_set_image_index(PlaceGraph *g, int type, int index);

/* ---------------------------------------------------------- placement */

typedef struct {
  uint32_t seed;              /* METIS seed: same seed, same placement */
  int round_robin;            /* 1: the naive baseline, no METIS */
  uint32_t max_devices_per_thread; /* 0: the softswitch's (16-bit local index) */
} PlaceOptions;

typedef struct {
  uint32_t ndevices, nthreads, nunits;
  uint32_t *thread;       /* device -> thread index */
  uint32_t *local;        /* device -> index in its thread's device array */
  uint32_t *thread_first; /* [nthreads+1]: thread t's devices are */
  uint32_t *thread_dev;   /*   thread_dev[thread_first[t] .. thread_first[t+1]) */
  int *unit_group;        /* [nunits]: code group of each core pair, -1 when unused */
  uint32_t *thread_bytes; /* [nthreads]: device state and properties bytes */
} PlacePlacement;

int place_run(PlaceGraph *g, const PlaceMachine *m, const PlaceOptions *opt, PlacePlacement *p);
void place_placement_free(PlacePlacement *p);

/* Edges by where they go: same thread, same mailbox, same board, elsewhere. */
typedef struct {
  uint64_t edges, same_thread, same_mbox, same_board, other_board;
  uint64_t cut;           /* edges between different threads */
  uint64_t hops;          /* sum over edges of board-mesh manhattan distance */
  uint32_t max_devices_per_thread, threads_used;
} PlaceCutStats;
void place_cut_stats(const PlaceGraph *g, const PlaceMachine *m, const PlacePlacement *p,
                     PlaceCutStats *s);

/* How evenly one device type is spread: its devices per thread, over the
 * threads of its code group's core pairs (TYPE out of range: all zero). */
typedef struct {
  const char *name;
  uint32_t devices, threads, min, max;
} PlaceTypeBalance;
int place_num_types(const PlaceGraph *g);
void place_type_balance(const PlaceGraph *g, const PlaceMachine *m, const PlacePlacement *p, int type,
                        PlaceTypeBalance *b);

/* ------------------------------------------------------------ routing */

enum { PLACE_TO_MAILBOX, PLACE_TO_KEY, PLACE_TO_HOST };

/* One network message of a (device, pin): softswitch.h's ss_out_edge. */
typedef struct {
  uint8_t kind;           /* PLACE_TO_* */
  uint16_t key;           /* in-group key at every receiving thread (mailbox sends) */
  uint32_t mbox;          /* SendDest: mailbox address, MailboxRoutingKey or the host */
  uint64_t mask;          /* receiving threads of the mailbox; the routing key for PLACE_TO_KEY */
} PlaceSend;

/* One receiver in a thread's in-group: softswitch.h's ss_in_edge. */
typedef struct {
  uint16_t local;         /* receiving device's index on the thread */
  uint8_t in_pin;
  uint8_t edge_bytes;     /* bytes of the label as edge properties */
  uint32_t label;         /* edge label (OP2 map index) */
} PlaceRecv;

/* A board's routing tables: one byte table per DRAM at router_base. */
typedef struct {
  uint8_t *bytes[4];
  size_t len[4], cap[4];
} PlaceBoardTable;

typedef struct {
  /* per (device, pin): pins of device d are out_first[d] .. out_first[d] + num_out_pins */
  uint32_t *out_first;    /* [ndevices+1] index into local_key/send_first */
  uint32_t *local_key;    /* thread-local in-group, or 0xffff */
  uint32_t *send_first;   /* [nout+1] into sends */
  PlaceSend *sends;
  /* per thread: in-groups (keys 0..) and their receivers */
  uint32_t *group_first;  /* [nthreads+1] into group_recv_first, one per key */
  uint32_t *group_recv_first; /* [ngroups+1] into recvs */
  PlaceRecv *recvs;
  PlaceBoardTable *boards; /* [nboards] */
  uint32_t nthreads, nboards, nout;
  /* counts */
  uint64_t local_sends, mailbox_sends, key_sends, records, table_bytes;
} PlaceRoutes;

int place_route(PlaceGraph *g, const PlaceMachine *m, const PlacePlacement *p, PlaceRoutes *r);
/* A routing key that delivers a message entering the router of board FROM
 * (a host key send) to THREADS[0..n) (ascending placement thread indices,
 * any boards) with header key LOCAL_KEY: RR records towards other boards,
 * one MRM record per mailbox, added to R's tables. */
int place_multicast_key(PlaceGraph *g, const PlaceMachine *m, PlaceRoutes *r, int from, const uint32_t *threads,
                        size_t n, uint16_t local_key, uint32_t *key);
void place_routes_free(PlaceRoutes *r);

/* The hardware router's walk of routing key KEY entering board BOARD, over
 * R's tables (the decoder of what place_route writes): every record that
 * delivers calls FN with the board, the mailbox ({Y,X} on the board), the
 * thread mask and the local key the record writes into the message (MRM:
 * 16 bits; URM1/URM2: the first word); RR and IND records are followed.
 * Returns 0, or -1 for a key or record outside the tables. */
typedef void (*PlaceDeliverFn)(void *ctx, int board, int board_mbox, uint64_t mask, uint32_t local_key);
int place_router_follow(const PlaceMachine *m, const PlaceRoutes *r, int board, uint32_t key, PlaceDeliverFn fn,
                        void *ctx);

/* Routing keys (tinsel.md §3.3): {ram, beat pointer, number of beats}. */
uint32_t place_router_key(const PlaceMachine *m, int ram, uint32_t addr, int nbeats);

/* -------------------------------------------------------------- image */

/* Fills a device's initial state and properties (zeroed beforehand). */
typedef void (*PlaceFillFn)(void *ctx, int type, uint32_t index, void *state, void *props);

/* Builds thread T's image (softswitch.h ss_thread_image and its tables);
 * *out is malloc'd. Fails when it does not fit the DRAM partition less the
 * stack reserve. GRAPH_PROPS (may be NULL) is copied in. */
int place_image(PlaceGraph *g, const PlaceMachine *m, const PlacePlacement *p,
                const PlaceRoutes *r, uint32_t thread, const void *graph_props,
                uint32_t graph_props_bytes, uint32_t flags, PlaceFillFn fill, void *ctx,
                uint8_t **out, uint32_t *out_bytes);
/* The same with image version 2's invocation tables (softswitch.h):
 * NUM_INVOCATIONS ss_inv_node entries (24 B each) at INV are copied in, and
 * scratch for as many tree nodes is reserved; HOST_MBOX is where replies go. */
typedef struct {
  uint32_t num_invocations;
  const void *inv;
  uint32_t host_mbox;
} PlaceImageInv;
int place_image_inv(PlaceGraph *g, const PlaceMachine *m, const PlacePlacement *p,
                    const PlaceRoutes *r, uint32_t thread, const void *graph_props,
                    uint32_t graph_props_bytes, uint32_t flags, PlaceFillFn fill, void *ctx,
                    const PlaceImageInv *inv, uint8_t **out, uint32_t *out_bytes);

/* ------------------------------------------------------------ helpers */

/* Builds the airfoil graph of an OP2 mesh file (new_grid.dat): sets nodes,
 * edges, bedges, cells as types, each map a pin both ways, in the code
 * groups GROUPS says. The mesh is read and checked by
 * apps/airfoil/airfoil_mesh.h: NULL with the reason in ERR, and warnings
 * about degenerate cells to WARN (when not NULL). */
typedef enum {
  PLACE_AIRFOIL_GROUP_PER_SET, /* one code group per type */
  PLACE_AIRFOIL_ONE_GROUP,     /* every type in one group */
  PLACE_AIRFOIL_OP2_GROUPS     /* {nodes, cells} and {edges, bedges}: op2c's for airfoil sp */
} PlaceAirfoilGroups;
PlaceGraph *place_airfoil_graph(const char *mesh_path, PlaceAirfoilGroups groups, uint32_t state_bytes,
                                FILE *warn, char *err, size_t errlen);

#endif
