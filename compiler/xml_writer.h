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
  const char *path;
  bool reported; // a value XML cannot carry was reported
} XmlWriter;

// Open PATH, indented by two spaces, and start the document; on failure
// report "cannot open" and return false.
bool xml_open(XmlWriter *x, const char *path);
// The same into buf; WHAT names the text in messages (xml_close takes it as path).
bool xml_open_memory(XmlWriter *x, xmlBufferPtr buf, const char *what);
// End the document and close; on any failure since xml_open report
// "failed writing" (unless a value was reported) and return false.
// Values must be UTF-8 without the control characters XML 1.0 forbids:
// any other is reported once, naming the element or attribute, and fails
// the document; CDATA text may hold "]]>" (split across sections).
bool xml_close(XmlWriter *x, const char *path);

void xml_start(XmlWriter *x, const char *name);
void xml_end(XmlWriter *x);
void xml_attr(XmlWriter *x, const char *name, const char *value); // skipped when NULL
void xml_attr_int(XmlWriter *x, const char *name, int value);
void xml_text_cdata(XmlWriter *x, const char *text);
// <name><![CDATA[text]]></name>, skipped when the text is NULL or empty.
void xml_cdata(XmlWriter *x, const char *name, const char *text);
// The same, but an empty <name/> when the text is NULL or empty (elements
// that POETS readers require, such as an empty Properties).
void xml_cdata_always(XmlWriter *x, const char *name, const char *text);

#endif
