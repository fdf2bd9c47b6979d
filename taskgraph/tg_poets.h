/*
 * tg_poets.h: tg.h's POETS back end (docs/taskgraph.md, "Mapping to
 * Tinsel"), the part shared by the firmware and the host: one softswitch
 * device type, "tg node", whose properties say which kernel it runs (an
 * index into tgp_kernels, the same C functions compiled for Tinsel and for
 * the host) and how its ports and edges look, and whose state holds the
 * node's run state, computation state, input queues and credits.
 *
 * Messages. Output port j of a node is out pin j: one item per message, a
 * hardware multicast to every consumer of the port; the edge's label (its
 * edge properties) is the consumer's input port. Input port p has credit
 * pin TGP_PORTS + p back to its producer, labelled with the producer's edge
 * slot: taking an item from the queue gives the producer its room back.
 * A node fires (tg.c's rules, item for item) only when every out edge slot
 * has a credit and no item of its last firing waits to be sent.
 *
 * Order. The network need not keep two messages from one thread to another
 * in order (Tinsel does not when unicast and multicast mix; the host
 * softswitch engine delivers in any order), so an item carries its port's
 * sequence number after its 16 bytes, and the consumer puts it at its place
 * in a window of in_cap items from the oldest it has not taken. Credits
 * bound the items in flight on an edge to its capacity, so every item falls
 * inside the window. Credits are counts and need no order.
 *
 * Counted ports (tg.h; the multifrontal tree). Input port 0 may be counted
 * (props.cn = N): every item on any of its edges is an EVENT POST to the
 * port's ss_counted event (ss_counted.h), kept in arrival order in the
 * state's tail (cq: the current firing's N items, then up to 2N posts); the
 * port is there for a firing when the EVENT WAIT (UNTIL_COUNT = N) has
 * completed, the firing takes N items and waits again. Posts are unordered
 * and never wait for room: their edges have no credits (TGP_NO_CREDIT).
 *
 * Limits of this first version (tg_poets.c names them): 2 ports per
 * direction, 16-byte items, queues of at most 4 items, 32 bytes of
 * computation state, 8 out edges per node, one counted port (input 0) of
 * at most TGP_CQ bytes (3N items). On POETS a node's ctx is a
 * TGP_CTX-byte area of its device state, filled at the start with the
 * first ctx_bytes (the kernel's, tgp_kernel) of the node's host ctx; the
 * run reports its first word and a hash of those bytes.
 */
#ifndef TG_POETS_H
#define TG_POETS_H

#include <stdint.h>

#include "ss_counted.h"
#include "tg.h"

#define TGP_PORTS 2u
#define TGP_ITEM 16u
#define TGP_MSG (TGP_ITEM + 4u) /* an item message: the item, then its sequence number */
#define TGP_CAP 4u
#define TGP_STATE 32u
#define TGP_SLOTS 8u
#define TGP_CTX 32u
#define TGP_CQ 1024u                /* most bytes of a counted port's items (3N) */
#define TGP_NO_CREDIT 0x80000000u   /* the credits of an edge into a counted port (never run out) */

/* The kernels a firmware image holds (tgp_example.c for the worked
 * example): node kernel k is tgp_kernels[k] (fn for a function, co for a
 * coroutine). */
typedef struct {
  tg_function fn;
  tg_coroutine co;
  uint32_t ctx_bytes; /* how much of a node's ctx the kernel uses (at most TGP_CTX) */
} tgp_kernel;
#ifndef TGP_HOST
extern const tgp_kernel tgp_kernels[];
extern const uint32_t tgp_num_kernels;
#else /* the host holds every table (tg_poets.c) and points at the graph's */
extern const tgp_kernel *tgp_kernels;
extern uint32_t tgp_num_kernels;
#endif

typedef struct {
  uint32_t id, kernel, coroutine, nin, nout, state_bytes;
  uint32_t in_bytes[TGP_PORTS], out_bytes[TGP_PORTS];
  uint32_t out_first[TGP_PORTS], out_count[TGP_PORTS]; /* edge slots of each output port */
  uint32_t nslots;                                     /* out edge slots in all */
  uint32_t slot_cap[TGP_SLOTS];                        /* capacity of each out edge: its first credits */
  uint32_t in_cap[TGP_PORTS];                          /* capacity of the edge into each input port */
  uint32_t cn, ctx_bytes;                               /* input 0 counted (N; 0 plain); the kernel's ctx bytes */
  _Alignas(8) uint8_t init[TGP_STATE];                 /* initial computation state */
} tgp_props;

typedef struct {
  uint32_t run, ran, want, pending; /* pending: output ports whose item waits to be sent */
  uint32_t firings, invocations, errors, reported;
  uint32_t credit[TGP_SLOTS];
  /* Input port i: a window of in_cap[i] items from the oldest not taken (seq
   * taken[i], at q[i][head[i]]); bit d of have[i]: the item with seq
   * taken[i] + d is there. Output port j: sent[j] items sent (the next seq). */
  uint32_t head[TGP_PORTS], have[TGP_PORTS], taken[TGP_PORTS], owed[TGP_PORTS];
  uint32_t sent[TGP_PORTS];
  _Alignas(8) uint8_t state[TGP_STATE];
  _Alignas(8) uint8_t ctx[TGP_CTX];
  _Alignas(8) uint8_t inbuf[TGP_PORTS][TGP_ITEM];
  _Alignas(8) uint8_t outbuf[TGP_PORTS][TGP_ITEM];
  _Alignas(8) uint8_t q[TGP_PORTS][TGP_CAP][TGP_ITEM];
  ss_counted ev;   /* a counted input 0: its event */
  uint32_t cheld;  /* and the posts held in cq after the current firing's N items */
  _Alignas(8) uint8_t cq[]; /* (the host sizes the device state for its largest counted port) */
} tgp_state;

#define TGP_ERR_OVERFLOW 1u  /* an item outside its port's window, or twice (credits broken) */
#define TGP_ERR_CREDIT 2u    /* more credits than the edge's capacity */
#define TGP_ERR_KERNEL 4u    /* a bad kernel index or step result */
#define TGP_ERR_LEFT 8u      /* at the end: items left in a queue, or a coroutine active, or posts no wait took */
#define TGP_ERR_OVER 16u     /* a post beyond a counted port's threshold (J3/14-104's error) */

/* What a node reports at the end (the idle barrier). */
typedef struct {
  uint32_t id, run, firings, invocations, state_hash, errors;
  uint32_t ctx[2]; /* the ctx's first word; a hash of its ctx_bytes */
} tgp_report;
void tgp_report_node(const tgp_report *r);

#ifdef TGP_HOST
/* The host's softswitch engine only (tg_poets --stop-after K): firings left
 * before every node stops firing; messages still flow, so the run drains
 * (every item reaches its consumer's queue, every credit its producer). The
 * firmware has no such hook. */
extern uint64_t tgp_host_budget;
#endif

static inline uint32_t tgp_hash(const uint8_t *p, uint32_t n) {
  uint32_t h = 2166136261u;
  for (uint32_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 16777619u;
  return h;
}

#endif
