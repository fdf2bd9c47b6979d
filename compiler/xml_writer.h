// xml_writer.h: the small layer over libxml2's text writer that op2c's XML
// outputs (the IR, the POETS graph type) share. Every call folds its result
// into `ok`, so a writer checks once at the end instead of after each call.
#ifndef XML_WRITER_H
#define XML_WRITER_H

#include <libxml/xmlwriter.h>
#include <stdbool.h>

typedef struct {
  xmlTextWriterPtr w;
  bool ok;
} XmlWriter;

// Open PATH, indented by two spaces, and start the document; on failure
// report "cannot open" and return false.
bool xml_open(XmlWriter *x, const char *path);
// End the document and close; on any failure since xml_open report
// "failed writing" and return false.
bool xml_close(XmlWriter *x, const char *path);

void xml_start(XmlWriter *x, const char *name);
void xml_end(XmlWriter *x);
void xml_attr(XmlWriter *x, const char *name, const char *value); // skipped when NULL
void xml_attr_int(XmlWriter *x, const char *name, int value);
void xml_text_cdata(XmlWriter *x, const char *text);
// <name><![CDATA[text]]></name>, skipped when the text is NULL or empty.
void xml_cdata(XmlWriter *x, const char *name, const char *text);

#endif
