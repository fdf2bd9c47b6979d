// graph.h: the POETS graph type an OP2 program compiles to (seed 000).
//
// graph.c builds it from the protocol; graph_xml.c writes it as POETS graph
// XML (v4 dialect); the firmware generator wraps the same handler fragments
// into functions for the softswitch. Handlers are C fragments in the
// graph_schema style: `deviceState`, `deviceProperties`, `graphProperties`,
// `edgeProperties` and `message` are in scope, and `*doSend`/`*readyToSend`
// are outputs.
#ifndef GRAPH_H
#define GRAPH_H

#include "../../op2c.h"

typedef struct {
  char *name;
  int off, bytes;       // where C lays it out in the payload (not packed)
} GField;

typedef struct {
  char *id;
  char *decl;           // C member declarations of the payload
  int bytes;            // payload size
  GField *fields; int nfields; // begin and end messages: their members
} GMessageType;

// How firmware.c makes a pin's step (op2_steps.inc).
typedef enum { GSTEP_CODE, GSTEP_READ, GSTEP_SEND, GSTEP_BEGIN, GSTEP_END } GStepKind;
// What a table holds at most (op2_steps.inc OP2_MAX_COPIES, OP2_MAX_FRESH;
// the generated code asserts they agree): more, and the step stays code.
#define GSTEP_MAX_COPIES 4
#define GSTEP_MAX_FRESH 8

// Words a read lands (state field = message field) or a send puts out.
typedef struct {
  char *state;          // a member of the device state (an array of word-sized elements)
  char *msg;            // a member of the message
  bool words;           // its elements are whole words (else the step keeps its fragment)
  char *state_last, *msg_last; // or through these members, declared right after (read_recv_pins), or NULL
} GCopy;

// One invocation of a device type, as its ReadyToSend tests it (op2_inv_desc).
typedef struct {
  const char *inv;      // the invocation: its state fields are <inv>_in_progress, ...
  int exec_rts, end_rts;// ready bits of the execute and end pins; exec -1 if none
  int read_recv_total;  // begin and the reads it waits for
  char *kernel;         // the function the last read runs, or NULL
} GPart;

typedef struct {
  char *name;
  GMessageType *msg;
  bool is_output;
  char *edge_props;     // input pins: C declarations of edge properties, or NULL
  char *code;           // OnReceive / OnSend fragment
  int rts_index;        // output pins: bit in the ready-to-send word
  int part;             // the invocation it belongs to: index into its type's rts_parts
  // A step op2_steps.inc runs from a table (firmware.c writes it), or
  // GSTEP_CODE: the fragment in a step of its own.
  GStepKind step;
  GCopy *copies; int ncopies; // read and send steps: the words it moves
  char *mask;           // send steps: the state's mask its bit leaves
  unsigned fresh_rts[32]; int fresh_slots[32]; // begin steps: by fresh bit
  bool contributes;     // end steps: the iteration set's (its end message says so)
  bool write_recv;      // a write landing: only the last changes its ReadyToSend (firmware.c)
  // A write landing of a write group (protocol.c) whose code is that of pin
  // same_as (the group's first arg's, landing the same dat the same way)
  // but for its values' place in the message: its step is same_as's, on
  // the payload from its field msg_field (firmware.c), so the image holds it once.
  const char *same_as; char *msg_field;
} GPin;

typedef struct {
  char *id;             // set_{ident}: one per op_decl_set call (IRSet.ident)
  IRSet *set;
  char *props;          // C declarations: per-device properties
  char *state;          // C declarations: per-device state
  char *shared;         // per-type constants (masks, totals)
  GPin *pins; int npins;
  int noutputs;         // output pins so far: the next one's rts_index
  char *rts;            // ReadyToSend fragment
  char **rts_parts;     // the same, one invocation each: a handler of part i changes only
  int nparts;           // the fields part i reads, so only part i's bits need evaluating
  GPart *parts;         // the same parts as tables for op2_steps.inc (nparts)
  char *init;           // OnInit fragment
} GDeviceType;

typedef struct {
  char *id;
  const Program *prog;
  char *props;          // graph properties: the op_decl_const values
  char *shared;         // kernels, helpers and const globals
  char *macros;         // the program's #defines, which kernels may use
  const char *helpers;  // op2_copy_words and op2_zero_words, which handlers use
  char *consts;         // the const globals alone (C declarations)
  char *kernels;        // the kernels and helpers alone
  GMessageType **msgs; int nmsgs;
  StrMap msg_index;     // msgs by id
  GDeviceType **types; int ntypes;
  bool table_steps;     // firmware.c: steps from op2_steps.inc's tables where graph.c allows (GPin.step)
  GPin *controller_pins; int ncontroller_pins; // the host's side of begin/end
} GGraphType;

// Payload bytes of a Tinsel message (64 B, boards/: LogBytesPerMsg) left
// after the softswitch header (destination device and pin, 8 B).
#define TINSEL_MAX_PAYLOAD 56

// The names graph_schema's code generator gives the typed data of graph
// g (cpp_type_map.py): <g>_properties_t, <g>_<type>_properties_t,
// <g>_<type>_state_t, <g>_<msg>_message_t. Handler code that names a type
// uses these; the firmware's op2_graph.h defines them too.
// The fold of one end message into another (ss_end_combine, the
// controller): statements over `acc` and `in`, pointers to the end message.
void graph_write_end_fold(FILE *f, const IRLoop *l);
// Does the end message carry arg a (INC/MIN/MAX partial globals, op_arg_info)?
bool graph_gbl_on_end(const IRArg *a);

char *gs_graph_props_t(const GGraphType *g);
char *gs_props_t(const GGraphType *g, const GDeviceType *t);
char *gs_state_t(const GGraphType *g, const GDeviceType *t);
char *gs_msg_t(const GGraphType *g, const GMessageType *m);

GGraphType *graph_build(const Program *prog, const Protocol *proto);
bool graph_write_xml(const char *path, const GGraphType *g);
// What an instance writer adds to the self-contained file: the controller
// as a device type of the graph (graph_xml.c), which replays the calls the
// program made; OP2_CONTROLLER_STEPS in its Properties stands for the
// number of calls, which only the run knows.
#define OP2_CONTROLLER_STEPS "@OP2_CONTROLLER_STEPS@"

// The document of the self-contained file, up to (not including) its closing
// </Graphs>: the type with the controller as a device type (its Properties
// hold OP2_CONTROLLER_STEPS); a writer of the instance substitutes the number
// of calls, adds the GraphInstance and closes it.
// NULL, silently, when the sources hold bytes XML cannot carry.
char *graph_xml_head(const GGraphType *g);

#endif
