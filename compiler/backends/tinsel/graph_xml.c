// graph_xml.c: writes a graph type as POETS application-graph XML in the
// v4 dialect (PIP-0020): typed data as C declarations in CDATA, handlers as
// C fragments. The host program that drives the invocations appears as the
// external device type `controller`.
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

static void write_type(XmlWriter *x, const GDeviceType *t) {
  xml_start(x, "DeviceType");
  xml_attr(x, "id", t->id);
  xml_cdata_always(x, "Properties", t->props);
  xml_cdata_always(x, "State", t->state);
  xml_cdata(x, "SharedCode", t->shared);
  for (int i = 0; i < t->npins; i++)
    write_pin(x, &t->pins[i], true);
  xml_cdata(x, "ReadyToSend", t->rts);
  xml_cdata(x, "OnInit", t->init);
  xml_end(x);
}

static void write_graph(XmlWriter *x, const GGraphType *g) {
  xml_start(x, "Graphs");
  xml_attr(x, "xmlns", V4_NAMESPACE);
  xml_attr(x, "formatMinorVersion", "0");
  xml_attr(x, "appname", g->id);
  xml_start(x, "GraphType");
  xml_attr(x, "id", g->id);
  xml_cdata_always(x, "Properties", g->props); // graph_schema's Python reader requires it
  xml_cdata(x, "SharedCode", format("#include <stdint.h>\n#include <string.h>\n%s", g->shared));
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
    write_type(x, g->types[i]);
  // The host: its readers dereference the Properties and State of every
  // device type, externals too, so both are here, empty.
  xml_start(x, "ExternalType");
  xml_attr(x, "id", "controller");
  xml_cdata_always(x, "Properties", NULL);
  xml_cdata_always(x, "State", NULL);
  for (int i = 0; i < g->ncontroller_pins; i++)
    write_pin(x, &g->controller_pins[i], false);
  xml_end(x);
  xml_end(x); // DeviceTypes
  xml_end(x); // GraphType
  xml_end(x); // Graphs
}

bool graph_write_xml(const char *path, const GGraphType *g) {
  XmlWriter x;
  if (!xml_open(&x, path))
    return false;
  write_graph(&x, g);
  return xml_close(&x, path);
}

char *graph_xml_head(const GGraphType *g) {
  xmlBufferPtr buf = xmlBufferCreate();
  XmlWriter x;
  const char *what = format("the graph type of %s as XML", g->id);
  if (!buf || !xml_open_memory(&x, buf, what))
    return NULL;
  x.reported = true; // quiet: sources XML cannot carry leave the instance without its type
  write_graph(&x, g);
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
