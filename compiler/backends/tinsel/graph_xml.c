// graph_xml.c: writes a graph type as POETS application-graph XML in the
// v4 dialect (PIP-0020): typed data as C declarations in CDATA, handlers as
// C fragments. The host program that drives the invocations appears as the
// external device type `controller`.
#include "graph.h"

#include "../../xml_writer.h"

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
  xml_cdata(x, "Properties", t->props);
  xml_cdata(x, "State", t->state);
  xml_cdata(x, "SharedCode", t->shared);
  for (int i = 0; i < t->npins; i++)
    write_pin(x, &t->pins[i], true);
  xml_cdata(x, "ReadyToSend", t->rts);
  xml_cdata(x, "OnInit", t->init);
  xml_end(x);
}

bool graph_write_xml(const char *path, const GGraphType *g) {
  XmlWriter x;
  if (!xml_open(&x, path))
    return false;
  xml_start(&x, "Graphs");
  xml_attr(&x, "xmlns", V4_NAMESPACE);
  xml_attr(&x, "formatMinorVersion", "0");
  xml_attr(&x, "appname", g->id);
  xml_start(&x, "GraphType");
  xml_attr(&x, "id", g->id);
  xml_cdata(&x, "Properties", g->props);
  xml_cdata(&x, "SharedCode", format("#include <stdint.h>\n#include <string.h>\n%s", g->shared));
  xml_start(&x, "MessageTypes");
  for (int i = 0; i < g->nmsgs; i++) {
    xml_start(&x, "MessageType");
    xml_attr(&x, "id", g->msgs[i]->id);
    xml_cdata(&x, "Message", g->msgs[i]->decl);
    xml_end(&x);
  }
  xml_end(&x);
  xml_start(&x, "DeviceTypes");
  for (int i = 0; i < g->ntypes; i++)
    write_type(&x, g->types[i]);
  xml_start(&x, "ExternalType");
  xml_attr(&x, "id", "controller");
  for (int i = 0; i < g->ncontroller_pins; i++)
    write_pin(&x, &g->controller_pins[i], false);
  xml_end(&x);
  xml_end(&x); // DeviceTypes
  xml_end(&x); // GraphType
  xml_end(&x); // Graphs
  return xml_close(&x, path);
}
