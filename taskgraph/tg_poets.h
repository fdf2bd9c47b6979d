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
 * Limits of this first version (tg_poets.c names them): 2 ports per
 * direction, 16-byte items, queues of at most 4 items, 32 bytes of
 * computation state, 8 out edges per node. On POETS a node's ctx is an
 * 8-byte area of its device state, which the run reports (tg_poets.c
 * compares the first 4 with the oracle's: the example's ctx is a uint32_t).
 */
#ifndef TG_POETS_H
#define TG_POETS_H

#include <stdint.h>

#include "tg.h"

#define TGP_PORTS 2u
#define TGP_ITEM 16u
#define TGP_MSG (TGP_ITEM + 4u) /* an item message: the item, then its sequence number */
#define TGP_CAP 4u
#define TGP_STATE 32u
#define TGP_SLOTS 8u
#define TGP_CTX 8u

/* The kernels a firmware image holds (tgp_example.c for the worked
 * example): node kernel k is tgp_kernels[k] (fn for a function, co for a
 * coroutine). */
typedef struct {
  tg_function fn;
  tg_coroutine co;
} tgp_kernel;
extern const tgp_kernel tgp_kernels[];
extern const uint32_t tgp_num_kernels;

typedef struct {
  uint32_t id, kernel, coroutine, nin, nout, state_bytes;
  uint32_t in_bytes[TGP_PORTS], out_bytes[TGP_PORTS];
  uint32_t out_first[TGP_PORTS], out_count[TGP_PORTS]; /* edge slots of each output port */
  uint32_t slot_cap[TGP_SLOTS];                        /* capacity of each out edge: its first credits */
  uint32_t in_cap[TGP_PORTS];                          /* capacity of the edge into each input port */
  _Alignas(8) uint8_t init[TGP_STATE];                 /* initial computation state */
} tgp_props;

typedef struct {
  uint32_t run, ran, want, pending; /* pending: output ports whose item waits to be sent */
  uint32_t firings, invocations, errors, reported;
  uint32_t loaded; /* the host wrote a checkpoint's state here (tg_poets --resume): init keeps it */
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
} tgp_state;

#define TGP_ERR_OVERFLOW 1u  /* an item outside its port's window, or twice (credits broken) */
#define TGP_ERR_CREDIT 2u    /* more credits than the edge's capacity */
#define TGP_ERR_KERNEL 4u    /* a bad kernel index or step result */
#define TGP_ERR_LEFT 8u      /* at the end: items left in a queue, or a coroutine active */

/* What a node reports at the end (the idle barrier). */
typedef struct {
  uint32_t id, run, firings, invocations, state_hash, errors;
  uint32_t ctx[2];
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
