// xml_writer.c: see xml_writer.h.
#include "op2c.h"
#include "xml_writer.h"

bool xml_open(XmlWriter *x, const char *path) {
  x->w = xmlNewTextWriterFilename(path, 0);
  x->ok = x->w != NULL;
  if (!x->ok) {
    error_plain("cannot open '%s' for writing", path);
    return false;
  }
  xmlTextWriterSetIndent(x->w, 1);
  xmlTextWriterSetIndentString(x->w, BAD_CAST "  ");
  x->ok &= xmlTextWriterStartDocument(x->w, NULL, "UTF-8", NULL) >= 0;
  return true;
}

bool xml_close(XmlWriter *x, const char *path) {
  x->ok &= xmlTextWriterEndDocument(x->w) >= 0;
  xmlFreeTextWriter(x->w);
  x->w = NULL;
  if (!x->ok)
    error_plain("failed writing '%s'", path);
  return x->ok;
}

void xml_start(XmlWriter *x, const char *name) {
  x->ok &= xmlTextWriterStartElement(x->w, BAD_CAST name) >= 0;
}

void xml_end(XmlWriter *x) { x->ok &= xmlTextWriterEndElement(x->w) >= 0; }

void xml_attr(XmlWriter *x, const char *name, const char *value) {
  if (value)
    x->ok &= xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST value) >= 0;
}

void xml_attr_int(XmlWriter *x, const char *name, int value) {
  x->ok &= xmlTextWriterWriteFormatAttribute(x->w, BAD_CAST name, "%d", value) >= 0;
}

void xml_text_cdata(XmlWriter *x, const char *text) {
  x->ok &= xmlTextWriterWriteCDATA(x->w, BAD_CAST text) >= 0;
}

void xml_cdata(XmlWriter *x, const char *name, const char *text) {
  if (!text || !*text)
    return;
  xml_start(x, name);
  xml_text_cdata(x, text);
  xml_end(x);
}
