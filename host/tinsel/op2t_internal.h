/*
 * op2t_internal.h: state shared by the files of libop2_tinsel. Not part of
 * the API: generated code sees only op_tinsel.h.
 */
#ifndef OP2T_INTERNAL_H
#define OP2T_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "op2t_engine.h"

typedef struct {
  op2t_fanout *f;
  int n;
  uint8_t **part;          /* [ntypes]: op2t_takes_part of each involved type, else NULL */
  long parts;              /* the devices that take part, over the involved types */
  uint32_t landed;         /* begin's fresh bits whose reads the host lands (landed.c): no read edges */
  unsigned built;          /* which build of a binding these are (bindings.c), never 0 */
} op2t_fanouts;

/* Per invocation (by the table's position in op2t_graph_info): counts and,
 * for the instance writer, the edges of its latest call. */
typedef struct {
  op2t_counts counts;
  op2t_fanouts last;       /* kept only when OP2_EMIT_INSTANCE is set */
  char **last_props;       /* [ntypes] props of the involved types at that call */
  int *last_n;             /* [ntypes] */
  int seen;
} op2t_inv_record;

/* engines.c: OP2_TINSEL_ENGINE (fatal with the list when unknown); finish at op_exit. */
const op2t_engine *op2t_choose_engine(void);
const op2t_engine *op2t_current_engine(void);
void op2t_engine_finish(void);
/* devout.c: device output on the engines that run device code on the host */
void op2t_devout_at(uint32_t addr);     /* the thread (its address) whose code runs next */
void op2t_devout_at_device(const char *type, int t, int d);   /* or a device with no thread */
void op2t_devout_flush(void);           /* incomplete lines, at exit */

/* invoke.c: the devices of every type, bound or not ([ntypes]). */
op2t_devs *op2t_bound_devs(void);
/* invoke.c: waits until every invocation under way has ended (streamed
 * invocations, OP2_TINSEL_STREAM); before the host moves a dat, reads the
 * timers, and at op_exit. */
void op2t_stream_drain(void);
/* invoke.c: before bytes [off, off + bytes) of TYPE's device state change
 * in the mirror: waits for the invocations under way, unless all are held
 * by the engine (op2t_engine.holding) and none of them uses those bytes. */
void op2t_stream_settle(int type, int off, int bytes);

/* bindings.c: each invocation's edges and props, kept while its calls bind the
 * same sets, maps, dats and opt flags; the instance's generation moves when
 * anything in it changes (engines that load it reload then). */
const op2t_fanouts *op2t_bind_call(int k, op_set set, op_arg *args, op2t_devs *devs);
void op2t_bindings_drop_type(int type);  /* its devices changed */
void op2t_instance_changed(void);        /* graph properties changed */
unsigned op2t_instance_generation(void);
unsigned op2t_rebinds(void);  /* calls that replaced an invocation's earlier binding */
void op2t_bindings_free(void);
/* An invocation wrote DAT: the bindings whose reads of it the host lands are
 * built again at their next call, with those reads sent (landed.c). */
void op2t_bindings_unland(op_dat dat);

/* landed.c: indirect reads of dats the devices never wrote, landed by the host */
void op2t_land_init(bool on);            /* OP2_TINSEL_LAND=host (default), unless reads must all go */
bool op2t_land_on(void);
uint32_t op2t_land_bits(const op2t_invocation *inv, const op_arg *args); /* fresh bits it can land */
/* Before a call of invocation K: the pads its binding lands, where they may be out of date. */
void op2t_land_reads(int k, const op2t_invocation *inv, op_arg *args, const op2t_fanouts *fs, op2t_devs *devs);
long op2t_landed(void);                  /* pads landed (an arg over its iteration set, once) */
void op2t_land_free(void);
/* invoke.c: calls that wrote a guarded global without the host waiting for their end */
long op2t_deferred_calls(void);
/* invoke.c: moves whenever TYPE's states were replaced or initialised again */
unsigned op2t_type_inits(int type);

/* resident.c: where each dat's fresh copy is (host, device state or both). */
typedef struct {
  long to_devices;   /* dats copied into a slot of the device states */
  long to_host;      /* stale host copies brought back */
  long host_reads;   /* host reads (op_fetch_data and friends) */
} op2t_dat_counts;
void op2t_resident_init(void);                         /* registers libop2_seq's hooks */
void op2t_dat_to_devices(op_dat dat, int type, int off); /* unless already there */
void op2t_dat_written(op_dat dat);                      /* the devices changed it */
unsigned op2t_dat_version(op_dat dat);                  /* moves whenever the device copy may change */
int op2t_dat_device_written(op_dat dat);                /* an invocation ever wrote it */
void op2t_type_unbinding(int type);                     /* before its state is freed */
const op2t_dat_counts *op2t_dat_moves(void);
void op2t_resident_reapply(void);
void op2t_resident_sync_all(void);                      /* every stale host copy brought back */                      /* host-current slots into the mirror again */

/* errors.c */
_Noreturn void op2t_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *op2t_calloc(size_t n, size_t size);
void *op2t_grow(void *p, size_t n, size_t size);

/* edges.c */
/* The element of ARG's map target that slot K of arg A reaches from
 * element E (the slot of a vector arg is K, else A's idx); fatal when the
 * slot or the map's entry is out of range. */
int op2t_map_target(const op2t_arg *a, const op_arg *arg, int e, int k);
/* LANDED: the fresh bits whose reads the host lands: their read edges are left out. */
void op2t_build_edges(op2t_fanouts *fs, const op2t_invocation *inv, op_arg *args, op2t_devs *devs, uint32_t landed);
void op2t_free_edges(op2t_fanouts *fs);
/* The devices of TYPE that take part in a call of INV with edges F[0..NF):
 * every device of the iteration set; of another set, only those at an end
 * of one of the call's edges (in airfoil's bres_calc the cells and nodes
 * next to a boundary edge, not every cell and node). Only they get the
 * begin and post an end: the others have nothing to send or receive. PART
 * (one byte per device of TYPE) gets 1 for each; returns how many. */
long op2t_takes_part(const op2t_invocation *inv, const op2t_fanout *f, int nf, const op2t_devs *devs, int type,
                     uint8_t *part);
void op2t_set_props(const op2t_invocation *inv, op_arg *args, op2t_devs *devs);

/* threads.c: placement of the bound devices on threads (OP2_TINSEL_CONFIG) */
#define OP2T_DEFAULT_CONFIG "board"
/* Children per node of the tree of threads that folds ends (OP2_TINSEL_FANIN). */
#define OP2T_DEFAULT_FANIN 4 /* measured best on the cycle model: docs/softswitch.md */
void op2t_place(const op2t_devs *devs, int ntypes);
const uint32_t *const *op2t_threads(void);       /* [type][dev] */
int op2t_threads_per_mbox(void);
uint32_t op2t_place_seed(void); /* OP2_TINSEL_PLACE_SEED, default 1 */
const char *op2t_config_name(void);
/* "threads on CONFIG, fan-in F" or "per device" (invoke.c) */
const char *op2t_grain(void);

/* report.c: OP2_TINSEL_STATS (message counts) and OP2_EMIT_INSTANCE (the graph instance) at exit */
void op2t_report_init(void);
op2t_inv_record *op2t_record(const op2t_invocation *inv);
void op2t_record_call(op2t_inv_record *rec, const op2t_invocation *inv, const op2t_fanouts *fs,
                      const op2t_devs *devs);
extern const char *op2t_instance_path;
/* For the self-contained file (OP2_EMIT_INSTANCE): each call's begin
 * message (the controller device replays them) with the graph properties
 * it ran with, and the first values the devices got of each dat. */
void op2t_record_step(int k, const char *begin, int bytes, const char *graph_props);
void op2t_record_push(int type, int off, int bytes);

#endif
