// xml_writer.c: see xml_writer.h.
#include "op2c.h"
#include "xml_writer.h"

#include <string.h>

// Starts the document on w (NULL: could not be made; `failure` says so).
static bool start(XmlWriter *x, xmlTextWriterPtr w, const char *path, const char *failure) {
  x->w = w;
  x->ok = w != NULL;
  x->path = path;
  x->reported = false;
  if (!x->ok) {
    error_plain("%s", failure);
    return false;
  }
  xmlTextWriterSetIndent(x->w, 1);
  xmlTextWriterSetIndentString(x->w, BAD_CAST "  ");
  x->ok &= xmlTextWriterStartDocument(x->w, NULL, "UTF-8", NULL) >= 0;
  return true;
}

bool xml_open(XmlWriter *x, const char *path) {
  return start(x, xmlNewTextWriterFilename(path, 0), path, format("cannot open '%s' for writing", path));
}

bool xml_open_memory(XmlWriter *x, xmlBufferPtr buf, const char *what) {
  return start(x, xmlNewTextWriterMemory(buf, 0), what, format("cannot write %s", what));
}

bool xml_close(XmlWriter *x, const char *path) {
  x->ok &= xmlTextWriterEndDocument(x->w) >= 0;
  xmlFreeTextWriter(x->w);
  x->w = NULL;
  if (!x->ok && !x->reported)
    error_plain("failed writing '%s'", path);
  return x->ok;
}

void xml_start(XmlWriter *x, const char *name) {
  x->ok &= xmlTextWriterStartElement(x->w, BAD_CAST name) >= 0;
}

void xml_end(XmlWriter *x) { x->ok &= xmlTextWriterEndElement(x->w) >= 0; }

// The offset of the first byte of s that XML 1.0 cannot carry (a control
// character other than tab, newline and return, or not UTF-8), or -1.
static long bad_byte(const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  for (const unsigned char *q = p; *q;) {
    int n = *q < 0x80 ? 1 : (*q & 0xe0) == 0xc0 ? 2 : (*q & 0xf0) == 0xe0 ? 3 : (*q & 0xf8) == 0xf0 ? 4 : 0;
    if (n == 1 && *q < 0x20 && *q != '\t' && *q != '\n' && *q != '\r')
      return (long)(q - p);
    if (n == 0 || (n == 2 && *q < 0xc2))
      return (long)(q - p);
    for (int i = 1; i < n; i++)
      if ((q[i] & 0xc0) != 0x80)
        return (long)(q - p);
    q += n;
  }
  return -1;
}

static bool carries(XmlWriter *x, const char *what, const char *value) {
  long at = bad_byte(value);
  if (at < 0)
    return true;
  if (!x->reported)
    error_plain("cannot write '%s': %s has byte 0x%02x at offset %ld, which XML cannot carry", x->path, what,
                (unsigned char)value[at], at);
  x->reported = true;
  x->ok = false;
  return false;
}

void xml_attr(XmlWriter *x, const char *name, const char *value) {
  if (value && carries(x, format("the value of attribute '%s'", name), value))
    x->ok &= xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST value) >= 0;
}

void xml_attr_int(XmlWriter *x, const char *name, int value) {
  x->ok &= xmlTextWriterWriteFormatAttribute(x->w, BAD_CAST name, "%d", value) >= 0;
}

void xml_text_cdata(XmlWriter *x, const char *text) {
  if (!carries(x, "a text section (source code)", text))
    return;
  // "]]>" ends a section: "]]" closes one, ">" starts the next.
  for (const char *end; (end = strstr(text, "]]>")) != NULL; text = end + 2) {
    char *part = xstrndup(text, (size_t)(end + 2 - text));
    x->ok &= xmlTextWriterWriteCDATA(x->w, BAD_CAST part) >= 0;
    xfree(part);
  }
  x->ok &= xmlTextWriterWriteCDATA(x->w, BAD_CAST text) >= 0;
}

void xml_cdata(XmlWriter *x, const char *name, const char *text) {
  if (!text || !*text)
    return;
  xml_start(x, name);
  xml_text_cdata(x, text);
  xml_end(x);
}

void xml_cdata_always(XmlWriter *x, const char *name, const char *text) {
  xml_start(x, name);
  if (text && *text)
    xml_text_cdata(x, text);
  xml_end(x);
}
