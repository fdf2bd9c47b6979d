// tests/compat/heat/Heat.h: a heat-diffusion device written the way
// Tinsel's POLite apps write theirs (tinsel.md §6.1; POLite's heat-gals):
// a device class with init, send, recv, step and finish handlers over a
// state pointer and a ready-to-send pin. Two ways to end a step, as
// POLite's two heat apps: by the messages themselves (heat-gals: each
// carries the sender's step counter, a cell moves to the next step once it
// has sent and has heard from every neighbour, and a message one step
// ahead is kept for the next step), or, with SYNC, by the hardware's idle
// detection (heat-sync: step() runs on every device when no message is
// left anywhere).
//
// Unlike POLite's heat, the neighbours' temperatures are kept per edge
// label and added in a fixed order, so that the result does not depend on
// the order messages arrive in and the host can check it bit for bit.
#ifndef HEAT_H
#define HEAT_H

#include "heat_layout.h"

struct HeatDevice {
  HeatState *s;
  bool sync;

  // Called once, before any message: every cell sends its first value.
  void init() {
    s->readyToSend = s->time ? 1 : 0;
  }

  // The new temperature from this step's neighbours.
  void update() {
    if (!s->isConstant)
      s->val = ((s->in[HEAT_FROM_WEST] + s->in[HEAT_FROM_EAST]) +
                (s->in[HEAT_FROM_SOUTH] + s->in[HEAT_FROM_NORTH])) * 0.25f;
  }

  // Moves to the next step when this one is complete (not SYNC).
  void change() {
    if (sync || s->time == 0) return;
    if (s->sent && s->received == s->fanIn) {
      s->time--;
      update();
      for (int i = 0; i < HEAT_NEIGHBOURS; i++) {
        s->in[i] = s->inNext[i];
        s->inNext[i] = 0.0f;
      }
      s->received = s->receivedNext;
      s->receivedNext = 0;
      s->sent = 0;
      s->readyToSend = s->time ? 1 : 0;
    }
  }

  // Writes this step's temperature into the send slot.
  void send(volatile HeatMessage *msg) {
    msg->from = s->id;
    msg->time = s->time;
    msg->val = s->val;
    s->sent = 1;
    s->readyToSend = 0;
    change();
  }

  // A neighbour's temperature, from the side LABEL.
  void recv(const HeatMessage *msg, uint32_t label) {
    if (sync) {
      s->in[label] = msg->val;
    } else if (msg->time == s->time) {
      s->in[label] = msg->val;
      s->received++;
      change();
    } else {
      s->inNext[label] = msg->val;
      s->receivedNext++;
    }
  }

  // SYNC: called on every device when the whole machine is idle (every
  // message of this step delivered). Returns whether anything changed.
  bool step() {
    if (s->time == 0) {
      s->readyToSend = 0;
      return false;
    }
    s->time--;
    update();
    s->readyToSend = s->time ? 1 : 0;
    return true;
  }

  // The message to the host at the end.
  void finish(volatile HeatMessage *msg, uint32_t cycles) {
    msg->from = s->id;
    msg->time = cycles;
    msg->val = s->val;
  }
};

#endif
