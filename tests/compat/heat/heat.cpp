// tests/compat/heat/heat.cpp: the heat app's thread code, a small
// POLite-style softswitch (tinsel.md §6.2) around HeatDevice: a LIFO stack
// of devices ready to send; a device's message goes out once per
// destination mailbox on this board (tinselMulticast with the in-group key
// in the message) and once through a routing key for every other board
// (tinselKeySend: the board routers' tables, built by the host with
// libop2_place, multicast it and write the key); receivers on the sending
// thread get it directly. Received messages are dispatched through the
// thread's in-table. A step ends when each device has heard from all its
// neighbours (step counters in the messages), or, in the synchronous mode,
// when tinselIdle says that the whole machine is idle: then step() runs on
// every device, and the run ends when every thread has voted that nothing
// changed. Then each device sends its temperature to the host and main
// returns (entry `j main`: the boot loader kills the thread, or takes
// thread 0 back).
//
// Built with riscv64-unknown-elf-g++, freestanding: no C++ library.
// printf with C linkage: our stdio.h of Tinsel 0.8.3's era did not say so
// for C++ (a later declaration keeps it).
extern "C" int printf(const char *fmt, ...);
#include "tinsel.h"
#include "Heat.h"

// Tinsel's tinsel.h gives C++ code an operator| on TinselWakeupCond, so
// that POLite can wait on TINSEL_CAN_SEND|TINSEL_CAN_RECV. Ours may not
// have it yet: this template stands in, and loses to the header's
// (non-template) operator when that is there.
template <typename E> struct HeatWakeup {};
template <> struct HeatWakeup<TinselWakeupCond> { typedef TinselWakeupCond type; };
template <typename E> inline typename HeatWakeup<E>::type operator|(E a, E b) {
  return E((uint32_t)a | (uint32_t)b);
}

struct HeatThread {
  HeatThreadHeader *hdr;
  HeatState *states;
  const HeatOutEdge *outTable;
  const HeatInHeader *inHeaders;
  const HeatInEdge *inEdges;
  uint16_t senders[HEAT_MAX_DEVICES];   // LIFO of device indices ready to send
  uint32_t numSenders;
  uint32_t numDone;
  uint32_t start;
  uint32_t badKeys;

  HeatDevice dev(uint32_t i) { HeatDevice d; d.s = &states[i]; d.sync = hdr->sync != 0; return d; }

  void markRTS(uint32_t i) {
    HeatState *s = &states[i];
    if (s->readyToSend && !s->isMarkedRTS) {
      s->isMarkedRTS = 1;
      senders[numSenders++] = (uint16_t)i;
    }
  }

  // Every receiver of in-group KEY on this thread gets MSG.
  void deliver(uint32_t key, const HeatMessage *msg) {
    if (key >= hdr->numKeys) { badKeys++; return; }
    const HeatInHeader *h = &inHeaders[key];
    for (uint32_t k = 0; k < h->count; k++) {
      const HeatInEdge *e = &inEdges[h->first + k];
      if (e->dev >= hdr->numDevices || e->label >= HEAT_NEIGHBOURS) { badKeys++; continue; }
      bool wasDone = states[e->dev].time == 0;
      dev(e->dev).recv(msg, e->label);
      numDone += !wasDone && states[e->dev].time == 0;
      markRTS(e->dev);
    }
  }

  void run() {
    hdr = (HeatThreadHeader *)tinselHeapBase();
    if (hdr->magic != HEAT_MAGIC || hdr->numDevices > HEAT_MAX_DEVICES) return;   // a thread without devices
    uint8_t *base = (uint8_t *)hdr;
    states = (HeatState *)(base + hdr->devOff);
    outTable = (const HeatOutEdge *)(base + hdr->outOff);
    inHeaders = (const HeatInHeader *)(base + hdr->inHeaderOff);
    inEdges = (const HeatInEdge *)(base + hdr->inEdgeOff);
    numSenders = numDone = badKeys = 0;
    start = tinselCycleCount();
    for (uint32_t i = 0; i < hdr->numDevices; i++) {
      states[i].isMarkedRTS = 0;
      dev(i).init();
      numDone += states[i].time == 0;
      markRTS(i);
    }
    tinselSetLen((sizeof(HeatMessage) - 1) >> TinselLogBytesPerFlit);
    volatile HeatMessage *slot = (volatile HeatMessage *)tinselSendSlot();
    const HeatOutEdge *outEdge = 0;   // the multicast in progress
    bool active = true;               // synchronous mode: the last step changed something
    while (hdr->sync || numDone < hdr->numDevices || outEdge) {
      if (outEdge) {
        if (tinselCanSend()) {
          if (outEdge->mbox == tinselUseRoutingKey()) {
            tinselKeySend((int)outEdge->maskLo, slot);
          } else {
            slot->destKey = outEdge->key;
            tinselMulticast(outEdge->mbox, outEdge->maskHi, outEdge->maskLo, slot);
          }
          outEdge++;
          if (outEdge->key == HEAT_NO_KEY) outEdge = 0;
        } else {
          tinselWaitUntil(TINSEL_CAN_SEND | TINSEL_CAN_RECV);
        }
      } else if (numSenders) {
        if (tinselCanSend()) {
          uint32_t i = senders[--numSenders];
          HeatState *s = &states[i];
          s->isMarkedRTS = 0;
          if (s->readyToSend) {
            dev(i).send(slot);
            numDone += s->time == 0;
            HeatMessage copy;
            copy.from = slot->from;
            copy.time = slot->time;
            copy.val = slot->val;
            markRTS(i);
            if (s->localKey != HEAT_NO_KEY) deliver(s->localKey, &copy);
            if (outTable[s->outBase].key != HEAT_NO_KEY) outEdge = &outTable[s->outBase];
          }
        } else {
          tinselWaitUntil(TINSEL_CAN_SEND | TINSEL_CAN_RECV);
        }
      } else if (hdr->sync) {
        int idle = tinselIdle(!active);
        if (idle > 1) break;          // idle, and every thread voted that nothing changed
        if (idle == 1) {              // idle: the step is complete everywhere
          active = false;
          for (uint32_t i = 0; i < hdr->numDevices; i++) {
            active = dev(i).step() || active;
            markRTS(i);
          }
        }
      } else {
        tinselWaitUntil(TINSEL_CAN_RECV);
      }
      while (tinselCanRecv()) {
        volatile HeatMessage *m = (volatile HeatMessage *)tinselRecv();
        HeatMessage msg;
        msg.destKey = m->destKey;
        msg.from = m->from;
        msg.time = m->time;
        msg.val = m->val;
        tinselFree(m);
        deliver(msg.destKey, &msg);
      }
    }
    // Every device is done: its temperature (and the cycles this thread
    // ran) to the host.
    uint32_t cycles = tinselCycleCount() - start;
    for (uint32_t i = 0; i < hdr->numDevices; i++) {
      tinselWaitUntil(TINSEL_CAN_SEND);
      dev(i).finish(slot, cycles);
      tinselSend((int)tinselHostId(), slot);
    }
    tinselWaitUntil(TINSEL_CAN_SEND);
    if (badKeys) printf("heat: %u messages with keys or receivers outside the thread's tables\n", (unsigned)badKeys);
  }
};

int main() {
  // The softswitch's own state lives on the stack; the devices and tables
  // are where the host put them.
  HeatThread thread;
  thread.run();
  return 0;
}
