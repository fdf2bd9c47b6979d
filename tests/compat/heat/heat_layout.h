/* tests/compat/heat/heat_layout.h: what heat_host writes into each
 * thread's DRAM partition (tinselHeapBase()) and what the heat device code
 * reads there; shared by the host (C11) and the device (C++).
 *
 * The shape follows POLite's (tinsel.md §6.1, §6.3): per thread a header,
 * the device states, the out-edges of every device (one per destination
 * mailbox on the sender's board, one routing key for all other boards, a
 * terminator), and the in-table: per message key, the receiving devices on
 * this thread with their edge labels. All offsets are bytes from the
 * header; all fields little-endian, naturally aligned. */
#ifndef HEAT_LAYOUT_H
#define HEAT_LAYOUT_H

#include <stdint.h>

#define HEAT_MAGIC 0x54414548u   /* "HEAT" */
#define HEAT_NO_KEY 0xffffu      /* out-edge list terminator; no thread-local in-group */
#define HEAT_MAX_DEVICES 1024    /* per thread: the device code's sender stack */
#define HEAT_NEIGHBOURS 4        /* edge labels: where the sender is, seen from the receiver */
enum { HEAT_FROM_WEST, HEAT_FROM_EAST, HEAT_FROM_SOUTH, HEAT_FROM_NORTH };

/* The message, POLite's PMessage<HeatMessage>: the 16-bit key first (the
 * sender writes it for a mailbox multicast, the router's MRM record for a
 * routing-key send), then the payload. One flit. */
typedef struct {
  uint16_t destKey;      /* in-group key at every receiving thread */
  uint16_t unused;
  uint32_t from;         /* sender's cell index y * width + x */
  uint32_t time;         /* steps still to go at the sender; in the final message to the host: cycles run */
  float val;             /* temperature */
} HeatMessage;

/* One device (a grid cell). */
typedef struct {
  uint32_t id;           /* cell index y * width + x */
  uint32_t time;         /* steps still to go */
  float val;             /* temperature at this step */
  float in[HEAT_NEIGHBOURS];     /* neighbours' temperatures of this step, by label */
  float inNext[HEAT_NEIGHBOURS]; /* and of the next (a neighbour is at most one step ahead) */
  uint8_t fanIn, received, receivedNext, sent;
  uint8_t isConstant;    /* a boundary cell: its temperature never changes */
  uint8_t readyToSend;   /* POLite's *readyToSend: 0 (No) or 1 (Pin(0)) */
  uint8_t isMarkedRTS;   /* on the thread's sender stack */
  uint8_t unused;
  uint16_t outBase;      /* index of its first out-edge */
  uint16_t localKey;     /* in-group of receivers on its own thread, or HEAT_NO_KEY */
} HeatState;

/* One network send of a device's pin, POLite's POutEdge: a multicast to
 * threads maskHi:maskLo of mailbox MBOX with header key KEY, or, when MBOX
 * is tinselUseRoutingKey(), a key send of routing key maskLo. A device's
 * list ends with key HEAT_NO_KEY. */
typedef struct {
  uint16_t mbox;
  uint16_t key;
  uint32_t maskLo;
  uint32_t maskHi;
} HeatOutEdge;

/* The in-table, indexed by message key: receivers first..first+count-1. */
typedef struct {
  uint16_t first;
  uint16_t count;
} HeatInHeader;

typedef struct {
  uint16_t dev;          /* device index on this thread */
  uint16_t label;        /* HEAT_FROM_* */
} HeatInEdge;

/* At the thread's heap base. In the synchronous mode every thread of every
 * started core has one, with or without devices: all take part in the
 * idle detection that ends each step. */
typedef struct {
  uint32_t magic;
  uint32_t numDevices;
  uint32_t numKeys;
  uint32_t sync;         /* 0: steps by step counters (heat-gals); 1: by idle detection (heat-sync) */
  uint32_t devOff, outOff, inHeaderOff, inEdgeOff;
  uint32_t bytes;        /* of the whole image */
} HeatThreadHeader;

#endif
