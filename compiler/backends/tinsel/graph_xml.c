// graph_xml.c: writes a graph type as POETS application-graph XML in the
// v4 dialect (PIP-0020): typed data as C declarations in CDATA, handlers as
// C fragments. The host program that drives the invocations appears as the
// external device type `controller`.
#include "graph.h"

#include <libxml/xmlwriter.h>

#define V4_NAMESPACE "https://poets-project.org/schemas/virtual-graph-schema-v4"

typedef struct {
  xmlTextWriterPtr w;
  bool ok;
} Writer;

static void start(Writer *x, const char *name) {
  x->ok &= xmlTextWriterStartElement(x->w, BAD_CAST name) >= 0;
}
static void end(Writer *x) { x->ok &= xmlTextWriterEndElement(x->w) >= 0; }
static void attr(Writer *x, const char *name, const char *value) {
  x->ok &= xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST value) >= 0;
}

// <name><![CDATA[text]]></name>, skipped when the text is empty.
static void cdata(Writer *x, const char *name, const char *text) {
  if (!text || !*text)
    return;
  start(x, name);
  x->ok &= xmlTextWriterWriteCDATA(x->w, BAD_CAST text) >= 0;
  end(x);
}

static void write_pin(Writer *x, const GPin *p, bool handlers) {
  start(x, p->is_output ? "OutputPin" : "InputPin");
  attr(x, "name", p->name);
  attr(x, "messageTypeId", p->msg->id);
  if (handlers) {
    cdata(x, "Properties", p->edge_props);
    cdata(x, p->is_output ? "OnSend" : "OnReceive", p->code);
  }
  end(x);
}

static void write_type(Writer *x, const GDeviceType *t) {
  start(x, "DeviceType");
  attr(x, "id", t->id);
  cdata(x, "Properties", t->props);
  cdata(x, "State", t->state);
  cdata(x, "SharedCode", t->shared);
  for (int i = 0; i < t->npins; i++)
    write_pin(x, &t->pins[i], true);
  cdata(x, "ReadyToSend", t->rts);
  cdata(x, "OnInit", t->init);
  end(x);
}

bool graph_write_xml(const char *path, const GGraphType *g) {
  Writer x = {.w = xmlNewTextWriterFilename(path, 0), .ok = true};
  if (!x.w) {
    error_plain("cannot open '%s' for writing", path);
    return false;
  }
  xmlTextWriterSetIndent(x.w, 1);
  xmlTextWriterSetIndentString(x.w, BAD_CAST "  ");
  x.ok &= xmlTextWriterStartDocument(x.w, NULL, "UTF-8", NULL) >= 0;
  start(&x, "Graphs");
  attr(&x, "xmlns", V4_NAMESPACE);
  attr(&x, "formatMinorVersion", "0");
  attr(&x, "appname", g->id);
  start(&x, "GraphType");
  attr(&x, "id", g->id);
  cdata(&x, "Properties", g->props);
  cdata(&x, "SharedCode", format("#include <stdint.h>\n#include <string.h>\n%s", g->shared));
  start(&x, "MessageTypes");
  for (int i = 0; i < g->nmsgs; i++) {
    start(&x, "MessageType");
    attr(&x, "id", g->msgs[i]->id);
    cdata(&x, "Message", g->msgs[i]->decl);
    end(&x);
  }
  end(&x);
  start(&x, "DeviceTypes");
  for (int i = 0; i < g->ntypes; i++)
    write_type(&x, g->types[i]);
  start(&x, "ExternalType");
  attr(&x, "id", "controller");
  for (int i = 0; i < g->ncontroller_pins; i++)
    write_pin(&x, &g->controller_pins[i], false);
  end(&x);
  end(&x); // DeviceTypes
  end(&x); // GraphType
  end(&x); // Graphs
  x.ok &= xmlTextWriterEndDocument(x.w) >= 0;
  xmlFreeTextWriter(x.w);
  if (!x.ok)
    error_plain("failed writing '%s'", path);
  return x.ok;
}
