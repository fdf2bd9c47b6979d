// graph_xml.c: writes a graph type as POETS application-graph XML in the
// v4 dialect (PIP-0020): typed data as C declarations in CDATA, handlers as
// C fragments. The host program that drives the invocations appears as the
// external device type `controller` (op2c --emit-xml), or, in the
// self-contained file a run writes (graph_xml_head), as a device type that
// replays the run's calls.
#include "graph.h"

#include "../../xml_writer.h"

#include <string.h>

#define V4_NAMESPACE "https://poets-project.org/schemas/virtual-graph-schema-v4"

static void write_pin(XmlWriter *x, const GPin *p, bool handlers) {
  xml_start(x, p->is_output ? "OutputPin" : "InputPin");
  xml_attr(x, "name", p->name);
  xml_attr(x, "messageTypeId", p->msg->id);
  if (handlers) {
    xml_cdata(x, "Properties", p->edge_props);
    xml_cdata(x, p->is_output ? "OnSend" : "OnReceive", p->code);
  }
  xml_end(x);
}

// OnInit: the kernels see op_decl_const values as globals of the shared
// code; each device loads them from the graph properties (the firmware's
// init does the same, op2_load_consts).
static char *init_code(const GGraphType *g, const GDeviceType *t) {
  char *code = xstrdup("");
  for (int i = 0; i < g->prog->nconsts; i++) {
    const IRConst *c = g->prog->consts[i];
    code = format("%smemcpy(%s%s, graphProperties->global_%s, sizeof(%s));\n", code, c->dim == 1 ? "&" : "", c->name,
                  c->name, c->name);
  }
  return format("%s%s", code, t->init ? t->init : "");
}

static void write_type(XmlWriter *x, const GGraphType *g, const GDeviceType *t) {
  xml_start(x, "DeviceType");
  xml_attr(x, "id", t->id);
  xml_cdata_always(x, "Properties", t->props);
  xml_cdata_always(x, "State", t->state);
  xml_cdata(x, "SharedCode", t->shared);
  for (int i = 0; i < t->npins; i++)
    write_pin(x, &t->pins[i], true);
  xml_cdata(x, "ReadyToSend", t->rts);
  xml_cdata(x, "OnInit", init_code(g, t));
  xml_end(x);
}

// --- The controller as a device of the graph (the self-contained file). ---
// It replays the calls the program made, in order: steps[s][0] is the
// invocation of call s and steps[s][1..14] its begin message as the host
// sent it (round, READ/MIN/MAX globals, op_opt_arg flags); ends[k] is how
// many devices answer invocation k. It folds their ends as a thread's tree
// node does (ss_tree.h: the first end, or the first that contributes, is
// copied; later contributing ones folded), logs the call's globals, and
// moves on; after the last call it ends the run. So an XML-only simulator
// runs the program's computation with nothing from outside the file.
#define CTL_BEGIN_WORDS (TINSEL_MAX_PAYLOAD / 4)

static const IRLoop *loop_of(const GGraphType *g, int k) { return g->prog->loops[k]; }

static char *log_stmt(const GGraphType *g, int k) {
  const IRLoop *l = loop_of(g, k);
  char *fmt = format("op2 call %%u: %s", l->invocation), *vals = xstrdup("deviceState->step");
  for (int i = 0; i < l->nargs; i++) {
    const IRArg *a = &l->args[i];
    if (!graph_gbl_on_end(a))
      continue;
    const char *fixed = type_lookup(a->type)->fixed;
    bool real = !strcmp(fixed, "float") || !strcmp(fixed, "double");
    fmt = format("%s arg%d", fmt, i);
    for (int d = 0; d < a->dim; d++) {
      fmt = format("%s %s", fmt, real ? "%.17g" : "%lld");
      vals = format("%s, (%s)acc->gbl%d[%d]", vals, real ? "double" : "long long", i, d);
    }
    if (a->kind == ARG_INFO) {
      fmt = format("%s elem %%u", fmt);
      vals = format("%s, (unsigned)acc->elem%d", vals, i);
    }
  }
  return format("handler_log(2, \"%s\", %s);\n", fmt, vals);
}

// The begin message of the step from its words, member by member: the run
// recorded it as C lays it out, while graph_schema packs its messages.
static char *begin_copy(const GMessageType *m) {
  char *code = xstrdup("const unsigned char *w = (const unsigned char *)&deviceProperties->steps[deviceState->step][1];\n");
  for (int i = 0; i < m->nfields; i++)
    code = format("%smemcpy(&message->%s, w + %d, %d);\n", code, m->fields[i].name, m->fields[i].off, m->fields[i].bytes);
  return code;
}

static void write_controller_pins(XmlWriter *x, const GGraphType *g) {
  for (int k = 0; k < g->prog->nloops; k++) {
    const GPin *b = &g->controller_pins[2 * k], *e = &g->controller_pins[2 * k + 1];
    xml_start(x, "OutputPin");
    xml_attr(x, "name", b->name);
    xml_attr(x, "messageTypeId", b->msg->id);
    xml_cdata(x, "OnSend", format("%s"
                                  "if (deviceProperties->ends[%d] == 0) // no device answers: the call is done\n"
                                  "  deviceState->step++;\n"
                                  "else\n"
                                  "  deviceState->sent = 1;\n", begin_copy(b->msg), k));
    xml_end(x);
    char *m = gs_msg_t(g, e->msg);
    xml_start(x, "InputPin");
    xml_attr(x, "name", e->name);
    xml_attr(x, "messageTypeId", e->msg->id);
    xml_cdata(x, "OnReceive",
              format("%s *acc = (%s *)deviceState->acc;\n"
                     "if (deviceState->got == 0 || (message->contributes && !acc->contributes))\n"
                     "  memcpy(acc, message, sizeof(*message));\n"
                     "else if (message->contributes)\n"
                     "  op2_fold_%s(acc, message);\n"
                     "if (++deviceState->got == deviceProperties->ends[%d]) {\n"
                     "  %s"
                     "  deviceState->got = 0;\n  deviceState->sent = 0;\n"
                     "  if (++deviceState->step == deviceProperties->nsteps)\n    handler_exit(0);\n}\n",
                     m, m, loop_of(g, k)->invocation, k, log_stmt(g, k)));
    xml_end(x);
  }
}

static char *controller_shared(const GGraphType *g) {
  char *data = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&data, &len);
  if (!f)
    die(__FILE__, __LINE__, "open_memstream failed");
  for (int k = 0; k < g->prog->nloops; k++) {
    char *m = gs_msg_t(g, g->controller_pins[2 * k + 1].msg);
    fprintf(f, "static void op2_fold_%s(%s *acc, const %s *in) {\n  (void)acc, (void)in;\n", loop_of(g, k)->invocation,
            m, m);
    graph_write_end_fold(f, loop_of(g, k));
    fprintf(f, "}\n");
  }
  fclose(f);
  char *s = xstrndup(data, len);
  free(data);
  return s;
}

static void write_controller_device(XmlWriter *x, const GGraphType *g) {
  int n = g->prog->nloops;
  xml_start(x, "DeviceType");
  xml_attr(x, "id", "controller");
  xml_cdata_always(x, "Properties",
                   format("uint32_t nsteps; // the calls the program made\n"
                          "uint32_t ends[%d]; // per invocation: the devices that answer it\n"
                          "uint32_t steps[%s][%d]; // per call: the invocation, then its begin message's words\n",
                          n ? n : 1, OP2_CONTROLLER_STEPS, 1 + CTL_BEGIN_WORDS));
  xml_cdata_always(x, "State", format("uint32_t step;\nuint32_t got;\nuint32_t sent;\nuint64_t acc[%d];\n",
                                      TINSEL_MAX_PAYLOAD / 8));
  xml_cdata(x, "SharedCode", controller_shared(g));
  write_controller_pins(x, g);
  xml_cdata(x, "ReadyToSend", "*readyToSend = 0;\n"
                              "if (deviceState->step < deviceProperties->nsteps && !deviceState->sent)\n"
                              "  *readyToSend = 1u << deviceProperties->steps[deviceState->step][0];\n");
  xml_cdata(x, "OnInit", "");
  xml_end(x);
}

// controller_device: the host as the device type `controller` (the
// self-contained file of a run), else as an external (op2c --emit-xml).
static void write_graph(XmlWriter *x, const GGraphType *g, bool controller_device) {
  xml_start(x, "Graphs");
  xml_attr(x, "xmlns", V4_NAMESPACE);
  xml_attr(x, "formatMinorVersion", "0");
  xml_attr(x, "appname", g->id);
  xml_start(x, "GraphType");
  xml_attr(x, "id", g->id);
  xml_cdata_always(x, "Properties", g->props); // graph_schema's Python reader requires it
  xml_cdata(x, "SharedCode", format("#include <math.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n%s", g->shared));
  xml_start(x, "MessageTypes");
  for (int i = 0; i < g->nmsgs; i++) {
    xml_start(x, "MessageType");
    xml_attr(x, "id", g->msgs[i]->id);
    xml_cdata_always(x, "Message", g->msgs[i]->decl);
    xml_end(x);
  }
  xml_end(x);
  xml_start(x, "DeviceTypes");
  for (int i = 0; i < g->ntypes; i++)
    write_type(x, g, g->types[i]);
  if (controller_device) {
    write_controller_device(x, g);
  } else {
    // The host: its readers dereference the Properties and State of every
    // device type, externals too, so both are here, empty.
    xml_start(x, "ExternalType");
    xml_attr(x, "id", "controller");
    xml_cdata_always(x, "Properties", NULL);
    xml_cdata_always(x, "State", NULL);
    for (int i = 0; i < g->ncontroller_pins; i++)
      write_pin(x, &g->controller_pins[i], false);
    xml_end(x);
  }
  xml_end(x); // DeviceTypes
  xml_end(x); // GraphType
  xml_end(x); // Graphs
}

bool graph_write_xml(const char *path, const GGraphType *g) {
  XmlWriter x;
  if (!xml_open(&x, path))
    return false;
  write_graph(&x, g, false);
  return xml_close(&x, path);
}

char *graph_xml_head(const GGraphType *g) {
  xmlBufferPtr buf = xmlBufferCreate();
  XmlWriter x;
  const char *what = format("the graph type of %s as XML", g->id);
  if (!buf || !xml_open_memory(&x, buf, what))
    return NULL;
  x.reported = true; // quiet: sources XML cannot carry leave the instance without its type
  write_graph(&x, g, true);
  if (!xml_close(&x, what)) {
    xmlBufferFree(buf);
    return NULL;
  }
  const char *doc = (const char *)xmlBufferContent(buf);
  const char *end = strstr(doc, "</Graphs>");
  char *head = end ? xstrndup(doc, (size_t)(end - doc)) : NULL;
  xmlBufferFree(buf);
  return head;
}
