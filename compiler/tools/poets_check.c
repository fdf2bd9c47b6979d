// poets_check: does a POETS graph XML (v4) file follow the rules of
// graph_schema's readers (their Python loader and their C++ whole-file and
// streaming readers, "Version 4.4")? Written from reading those readers;
// none of their code. What it checks (docs/graph-type.md, "Conformance"):
//
//   - the root is Graphs in the v4 namespace, holding one GraphType and,
//     after it, one GraphInstance of that type (--type-only: the instance
//     may be absent);
//   - the elements the readers require: the graph's Properties, each
//     MessageType's Message, each DeviceType's Properties, State and
//     ReadyToSend, each input pin's OnReceive and output pin's OnSend, an
//     ExternalType's Properties and State;
//   - typed data declarations: members are (u)int8/16/32/64_t, float,
//     double or struct { ... }, each NAME[N]...; with decimal N > 0, names
//     that are neither type names nor start with one (their Python lexer
//     splits `int32_total` into `int32_t` and `otal`), no duplicates;
//     comments // and /* */;
//   - values (P and S attributes): positional C initialisers, braces per
//     struct and per array dimension, a value for every member, decimal
//     integers in range (with u, l, ll suffixes) and decimal floats;
//   - names: ids and pin names [A-Za-z0-9_]+, unique; every type, message
//     type, device and pin a reference names exists, and an edge joins an
//     output pin to an input pin of the same message type;
//   - only the attributes and children their streaming reader accepts on
//     GraphInstance, DeviceInstances, DevI, ExtI, EdgeInstances and EdgeI.
//
// Prints FILE:LINE: error: ... per problem and exits 1 if there is any,
// 2 if a file cannot be read or parsed as XML, else 0. An external
// instance (ExtI) gets a warning only: the file is as their readers want
// it, but their streaming reader crashes on any (it gives external types
// no State spec).
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/hash.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>

#include "poets_types.h"
#include <sys/stat.h>

#define V4_NS "https://poets-project.org/schemas/virtual-graph-schema-v4"
#define MAX_ERRORS 100

static const char *file;
static int errors;

static void error_at(long line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void error_at(long line, const char *fmt, ...) {
  if (++errors > MAX_ERRORS)
    return;
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s:%ld: error: ", file, line);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static long line_of(xmlNode *n) { return n ? xmlGetLineNo(n) : 0; }

static void *xalloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p) {
    fprintf(stderr, "poets_check: out of memory\n");
    exit(2);
  }
  return p;
}

// Room for one more of n items of size bytes in a (capacity *cap, zeroed).
static void *room(void *a, int n, int *cap, size_t size) {
  if (n < *cap)
    return a;
  *cap = *cap ? 2 * *cap : 8;
  void *grown = xalloc(size * (size_t)*cap);
  if (n)
    memcpy(grown, a, size * (size_t)n);
  free(a);
  return grown;
}

static char *xstrdup(const char *s) {
  char *p = xalloc(strlen(s) + 1);
  strcpy(p, s);
  return p;
}

static bool is_elem(xmlNode *n, const char *name) {
  return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

static bool in_v4(xmlNode *n) { return n->ns && n->ns->href && !strcmp((const char *)n->ns->href, V4_NS); }

static xmlNode *child(xmlNode *parent, const char *name) {
  for (xmlNode *c = parent->children; c; c = c->next)
    if (is_elem(c, name))
      return c;
  return NULL;
}

static int count_children(xmlNode *parent, const char *name) {
  int n = 0;
  for (xmlNode *c = parent->children; c; c = c->next)
    n += is_elem(c, name);
  return n;
}

// An attribute's value (NULL if absent), owned by the caller.
static char *attr(xmlNode *n, const char *name) { return (char *)xmlGetProp(n, BAD_CAST name); }

static bool is_name(const char *s) {
  if (!s || !*s)
    return false;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '_')
      return false;
  return true;
}

// A required attribute that is a name ([A-Za-z0-9_]+); NULL after an error.
static char *name_attr(xmlNode *n, const char *name) {
  char *v = attr(n, name);
  if (!v)
    error_at(line_of(n), "<%s> has no %s attribute", n->name, name);
  else if (!is_name(v)) {
    error_at(line_of(n), "<%s> %s '%s' is not a name ([A-Za-z0-9_]+)", n->name, name, v);
    xmlFree(v);
    return NULL;
  }
  return v;
}

//
// Typed data: C declarations
//

typedef enum { T_I8, T_U8, T_I16, T_U16, T_I32, T_U32, T_I64, T_U64, T_FLOAT, T_DOUBLE, T_STRUCT } Kind;

static const char *const type_names[] = {POETS_TYPE_NAMES}; // in Kind's order

typedef struct Member {
  Kind kind;
  char *name;
  int ndims;
  long dims[8];
  struct Member *members; // T_STRUCT
  int nmembers;
} Member;

typedef struct {
  Member *members;
  int nmembers;
} Spec;

typedef struct {
  const char *s;
  size_t pos;
  long line;     // of the element holding the text
  bool failed;
} Lex;

typedef struct {
  char text[128];
  long line;
  bool end;
} Tok;

// The next token of a declaration: ; { } [ ], a decimal number, a name.
static Tok next_tok(Lex *lx) {
  Tok t = {{0}, lx->line, false};
  const char *s = lx->s;
  for (;;) {
    while (s[lx->pos] && isspace((unsigned char)s[lx->pos]))
      lx->line += s[lx->pos++] == '\n';
    if (s[lx->pos] == '/' && s[lx->pos + 1] == '/') {
      while (s[lx->pos] && s[lx->pos] != '\n')
        lx->pos++;
    } else if (s[lx->pos] == '/' && s[lx->pos + 1] == '*') {
      const char *end = strstr(s + lx->pos + 2, "*/");
      if (!end) {
        error_at(lx->line, "unterminated /* comment in a declaration");
        lx->failed = true;
        t.end = true;
        return t;
      }
      for (; s + lx->pos < end + 2; lx->pos++)
        lx->line += s[lx->pos] == '\n';
    } else {
      break;
    }
  }
  t.line = lx->line;
  char c = s[lx->pos];
  if (!c) {
    t.end = true;
    return t;
  }
  size_t n = 0;
  if (strchr(";{}[]", c)) {
    n = 1;
  } else if (isalnum((unsigned char)c) || c == '_') {
    while (isalnum((unsigned char)s[lx->pos + n]) || s[lx->pos + n] == '_')
      n++;
  } else {
    error_at(t.line, "declaration: unexpected character '%c' (readers accept names, numbers, ; { } [ ] and comments)", c);
    lx->failed = true;
    t.end = true;
    return t;
  }
  size_t keep = n < sizeof t.text ? n : sizeof t.text - 1;
  memcpy(t.text, s + lx->pos, keep);
  t.text[keep] = 0;
  lx->pos += n;
  return t;
}

static int type_index(const char *s) {
  for (int i = 0; i < (int)(sizeof type_names / sizeof *type_names); i++)
    if (!strcmp(s, type_names[i]))
      return i;
  return -1;
}

static bool check_member_name(const Tok *t) {
  if (t->end || !(isalpha((unsigned char)t->text[0]) || t->text[0] == '_')) {
    error_at(t->line, "declaration: expected a member name, got '%s'", t->end ? "end of text" : t->text);
    return false;
  }
  if (type_index(t->text) >= 0 || !strcmp(t->text, "struct")) {
    error_at(t->line, "declaration: member name '%s' is a type name or keyword", t->text);
    return false;
  }
  for (int i = 0; i <= (int)(sizeof type_names / sizeof *type_names); i++) {
    const char *k = i < (int)(sizeof type_names / sizeof *type_names) ? type_names[i] : "struct";
    if (!strncmp(t->text, k, strlen(k))) {
      error_at(t->line, "declaration: member name '%s' starts with '%s', which graph_schema's Python lexer reads as a "
                        "separate token", t->text, k);
      return false;
    }
  }
  return true;
}

static bool parse_members(Lex *lx, Member **out, int *nout, bool nested);
static void free_members(Member *ms, int n);

// One member: TYPE NAME dims ; | struct { members } NAME dims ;
static bool parse_member(Lex *lx, Tok t, Member *m) {
  int ti = type_index(t.text);
  if (ti >= 0) {
    m->kind = (Kind)ti;
  } else if (!strcmp(t.text, "struct")) {
    m->kind = T_STRUCT;
    Tok b = next_tok(lx);
    if (b.end || strcmp(b.text, "{")) {
      error_at(b.line, "declaration: expected '{' after 'struct'");
      return false;
    }
    if (!parse_members(lx, &m->members, &m->nmembers, true))
      return false;
  } else {
    error_at(t.line, "declaration: '%s' is not a type graph_schema's readers accept ((u)int8/16/32/64_t, float, double "
                     "or struct)", t.text);
    return false;
  }
  Tok n = next_tok(lx);
  if (!check_member_name(&n))
    return false;
  m->name = xstrdup(n.text);
  Tok x = next_tok(lx);
  while (!x.end && !strcmp(x.text, "[")) {
    Tok d = next_tok(lx);
    char *end;
    errno = 0;
    long v = d.end ? 0 : strtol(d.text, &end, 10);
    if (d.end || d.text[0] < '1' || d.text[0] > '9' || *end || errno || v > 0x7fffffff) {
      error_at(d.line, "declaration: array length of '%s' must be a decimal number from 1, got '%s'", m->name,
               d.end ? "end of text" : d.text);
      return false;
    }
    if (m->ndims == 8) {
      error_at(d.line, "declaration: '%s' has more than 8 dimensions", m->name);
      return false;
    }
    m->dims[m->ndims++] = v;
    Tok c = next_tok(lx);
    if (c.end || strcmp(c.text, "]")) {
      error_at(c.line, "declaration: expected ']' in the length of '%s'", m->name);
      return false;
    }
    x = next_tok(lx);
  }
  if (x.end || strcmp(x.text, ";")) {
    error_at(x.line, "declaration: expected ';' after member '%s'", m->name);
    return false;
  }
  return true;
}

static bool parse_members(Lex *lx, Member **out, int *nout, bool nested) {
  int cap = 0;
  for (;;) {
    Tok t = next_tok(lx);
    if (lx->failed)
      return false;
    if (t.end) {
      if (nested) {
        error_at(t.line, "declaration: missing '}' of a struct");
        return false;
      }
      return true;
    }
    if (nested && !strcmp(t.text, "}"))
      return true;
    *out = room(*out, *nout, &cap, sizeof(Member));
    Member *m = &(*out)[*nout];
    memset(m, 0, sizeof *m);
    if (!parse_member(lx, t, m)) {
      free(m->name);
      free_members(m->members, m->nmembers);
      return false;
    }
    (*nout)++; // freed with the others from here
    for (int i = 0; i < *nout - 1; i++)
      if (!strcmp((*out)[i].name, m->name)) {
        error_at(t.line, "declaration: member '%s' is declared twice", m->name);
        return false;
      }
  }
}

static void free_members(Member *ms, int n) {
  for (int i = 0; i < n; i++) {
    free(ms[i].name);
    free_members(ms[i].members, ms[i].nmembers);
  }
  free(ms);
}

static void free_spec(Spec *s) {
  if (s)
    free_members(s->members, s->nmembers);
  free(s);
}

// The typed data declared in element e (its text; empty when absent).
static Spec *parse_spec(xmlNode *e) {
  Spec *s = xalloc(sizeof(Spec));
  if (!e)
    return s;
  char *text = (char *)xmlNodeGetContent(e);
  Lex lx = {text ? text : "", 0, line_of(e), false};
  bool ok = parse_members(&lx, &s->members, &s->nmembers, false);
  xmlFree(text);
  if (!ok) {
    free_spec(s);
    return NULL;
  }
  return s;
}

//
// Values: positional initialisers
//

typedef struct {
  const char *s;
  size_t pos;
  long line;
  const char *what; // "P of DevI 'x'"
  bool failed;
} Val;

static void val_error(Val *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void val_error(Val *v, const char *fmt, ...) {
  if (v->failed)
    return;
  v->failed = true;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  error_at(v->line, "%s: %s (at offset %zu)", v->what, msg, v->pos);
}

static void skip_ws(Val *v) {
  while (isspace((unsigned char)v->s[v->pos]))
    v->pos++;
}

static bool expect(Val *v, char c, const char *member) {
  skip_ws(v);
  if (v->s[v->pos] != c) {
    if (v->s[v->pos])
      val_error(v, "expected '%c' %s '%s', got '%c'", c, c == '}' ? "after the values of" : "before", member, v->s[v->pos]);
    else
      val_error(v, "expected '%c' %s '%s', got the end", c, c == '}' ? "after the values of" : "before", member);
    return false;
  }
  v->pos++;
  return true;
}

static void scalar(Val *v, Kind k, const char *member) {
  skip_ws(v);
  const char *p = v->s + v->pos;
  size_t n = 0;
  while (p[n] && !isspace((unsigned char)p[n]) && p[n] != ',' && p[n] != '}' && p[n] != '{')
    n++;
  char tok[128];
  if (n == 0 || n >= sizeof tok) {
    val_error(v, "expected a number for '%s'", member);
    return;
  }
  memcpy(tok, p, n);
  tok[n] = 0;
  if (k == T_FLOAT || k == T_DOUBLE) {
    // Decimal: [+-]digits[.digits][e[+-]digits] (their C++ reader's
    // operator>> rejects inf, nan and hex).
    const char *q = tok;
    q += *q == '+' || *q == '-';
    int digits = 0;
    while (isdigit((unsigned char)*q))
      q++, digits++;
    if (*q == '.')
      for (q++; isdigit((unsigned char)*q); q++)
        digits++;
    if (digits && (*q == 'e' || *q == 'E')) {
      q++;
      q += *q == '+' || *q == '-';
      if (!isdigit((unsigned char)*q))
        digits = 0;
      while (isdigit((unsigned char)*q))
        q++;
    }
    if (!digits || *q)
      val_error(v, "'%s' is not a decimal number for %s '%s'", tok, type_names[k], member);
  } else {
    size_t len = strlen(tok); // C suffixes u, l, ll, ul, ull
    if (len && tok[len - 1] == 'l') tok[--len] = 0;
    if (len && tok[len - 1] == 'l') tok[--len] = 0;
    if (len && tok[len - 1] == 'u') tok[--len] = 0;
    const char *q = tok;
    bool neg = *q == '-';
    q += *q == '+' || *q == '-';
    bool ok = isdigit((unsigned char)*q);
    for (const char *r = q; *r; r++)
      ok &= isdigit((unsigned char)*r) != 0;
    if (!ok) {
      val_error(v, "'%.*s' is not a decimal integer for %s '%s'", (int)n, p, type_names[k], member);
    } else {
      errno = 0;
      bool is_unsigned = k == T_U8 || k == T_U16 || k == T_U32 || k == T_U64;
      int bits = k <= T_U8 ? 8 : k <= T_U16 ? 16 : k <= T_U32 ? 32 : 64;
      bool range = true;
      if (neg) {
        long long x = strtoll(tok, NULL, 10);
        range = !errno && !is_unsigned && (bits == 64 || x >= -(1LL << (bits - 1)));
      } else {
        unsigned long long x = strtoull(q, NULL, 10);
        range = !errno && (bits == 64 ? (is_unsigned || x <= INT64_MAX)
                                      : x <= (is_unsigned ? (1ULL << bits) - 1 : (1ULL << (bits - 1)) - 1));
      }
      if (!range)
        val_error(v, "%.*s is out of the range of %s '%s'", (int)n, p, type_names[k], member);
    }
  }
  v->pos += n;
}

static void value_of(Val *v, const Member *m, int dim);

static void struct_value(Val *v, const Member *ms, int n, const char *name) {
  if (!expect(v, '{', n ? ms[0].name : name))
    return;
  for (int i = 0; i < n && !v->failed; i++) {
    if (i && !expect(v, ',', ms[i].name))
      return;
    value_of(v, &ms[i], 0);
  }
  if (!v->failed)
    expect(v, '}', n ? ms[n - 1].name : name);
}

static void value_of(Val *v, const Member *m, int dim) {
  if (dim < m->ndims) {
    if (!expect(v, '{', m->name))
      return;
    for (long i = 0; i < m->dims[dim] && !v->failed; i++) {
      if (i && !expect(v, ',', m->name))
        return;
      value_of(v, m, dim + 1);
    }
    if (!v->failed)
      expect(v, '}', m->name);
  } else if (m->kind == T_STRUCT) {
    struct_value(v, m->members, m->nmembers, m->name);
  } else {
    scalar(v, m->kind, m->name);
  }
}

// Attribute name of e as a value of spec (absent or empty: the defaults).
static void check_value(xmlNode *e, const char *name, const Spec *spec, const char *what) {
  char *s = attr(e, name);
  if (!s)
    return;
  const char *p = s;
  while (isspace((unsigned char)*p))
    p++;
  if (*p) {
    char desc[300];
    snprintf(desc, sizeof desc, "%s of %s", name, what);
    if (!spec) {
      error_at(line_of(e), "%s: a value, but no %s declaration for it", desc, !strcmp(name, "P") ? "Properties" : "State");
    } else {
      Val v = {s, 0, line_of(e), desc, false};
      struct_value(&v, spec->members, spec->nmembers, "the value");
      skip_ws(&v);
      if (!v.failed && v.s[v.pos])
        val_error(&v, "text after the closing '}'");
    }
  }
  xmlFree(s);
}

//
// The graph type
//

typedef struct {
  char *name;
  char *msg;
  bool is_output;
  Spec *props, *state;
} Pin;

typedef struct {
  char *id;
  bool external;
  Spec *props, *state;
  Pin *pins;
  int npins;
} DevType;

typedef struct {
  char *id;
  xmlHashTablePtr msgs;  // id -> (void *)1
  DevType *types;
  int ntypes;
  Spec *props;
} GraphType;

static DevType *find_type(GraphType *g, const char *id) {
  for (int i = 0; i < g->ntypes; i++)
    if (!strcmp(g->types[i].id, id))
      return &g->types[i];
  return NULL;
}

static Pin *find_pin(DevType *t, const char *name, bool output) {
  for (int i = 0; i < t->npins; i++)
    if (t->pins[i].is_output == output && !strcmp(t->pins[i].name, name))
      return &t->pins[i];
  return NULL;
}

static Spec *required_spec(xmlNode *parent, const char *name, const char *what) {
  int n = count_children(parent, name);
  if (n == 0) {
    error_at(line_of(parent), "%s has no <%s> (graph_schema's readers require it; it may be empty)", what, name);
    return NULL;
  }
  if (n > 1)
    error_at(line_of(parent), "%s has %d <%s> elements", what, n, name);
  return parse_spec(child(parent, name));
}

static void required_code(xmlNode *parent, const char *name, const char *what) {
  xmlNode *c = child(parent, name);
  if (!c) {
    error_at(line_of(parent), "%s has no <%s> (graph_schema's readers require it)", what, name);
    return;
  }
}

static void load_pins(GraphType *g, DevType *t, xmlNode *dt) {
  int cap = 0;
  for (xmlNode *p = dt->children; p; p = p->next) {
    bool in = is_elem(p, "InputPin"), out = is_elem(p, "OutputPin");
    if (!in && !out)
      continue;
    char *name = name_attr(p, "name"), *msg = name_attr(p, "messageTypeId");
    if (!name || !msg) {
      xmlFree(name);
      xmlFree(msg);
      continue;
    }
    char what[300];
    snprintf(what, sizeof what, "pin '%s' of type '%s'", name, t->id);
    if (!xmlHashLookup(g->msgs, BAD_CAST msg))
      error_at(line_of(p), "%s: unknown messageTypeId '%s'", what, msg);
    if (find_pin(t, name, out))
      error_at(line_of(p), "%s is declared twice", what);
    t->pins = room(t->pins, t->npins, &cap, sizeof(Pin));
    Pin *pin = &t->pins[t->npins++];
    pin->name = name;
    pin->msg = msg;
    pin->is_output = out;
    if (in && child(p, "Properties"))
      pin->props = parse_spec(child(p, "Properties"));
    if (in && child(p, "State"))
      pin->state = parse_spec(child(p, "State"));
    if (!t->external)
      required_code(p, in ? "OnReceive" : "OnSend", what);
  }
}

static bool load_graph_type(xmlNode *gt, GraphType *g) {
  g->id = name_attr(gt, "id");
  if (!g->id)
    return false;
  char what[300];
  snprintf(what, sizeof what, "GraphType '%s'", g->id);
  g->props = required_spec(gt, "Properties", what);
  g->msgs = xmlHashCreate(64);
  xmlNode *mts = child(gt, "MessageTypes"), *dts = child(gt, "DeviceTypes");
  if (!mts)
    error_at(line_of(gt), "%s has no <MessageTypes>", what);
  for (xmlNode *m = mts ? mts->children : NULL; m; m = m->next) {
    if (m->type != XML_ELEMENT_NODE)
      continue;
    if (!is_elem(m, "MessageType")) {
      error_at(line_of(m), "unexpected <%s> in MessageTypes", m->name);
      continue;
    }
    char *id = name_attr(m, "id");
    if (!id)
      continue;
    snprintf(what, sizeof what, "MessageType '%s'", id);
    if (xmlHashAddEntry(g->msgs, BAD_CAST id, (void *)1) != 0)
      error_at(line_of(m), "%s is declared twice", what);
    free_spec(required_spec(m, "Message", what));
    xmlFree(id);
  }
  if (!dts) {
    error_at(line_of(gt), "GraphType '%s' has no <DeviceTypes>", g->id);
    return false;
  }
  int cap = 0;
  for (xmlNode *d = dts->children; d; d = d->next) {
    if (d->type != XML_ELEMENT_NODE)
      continue;
    bool ext = is_elem(d, "ExternalType");
    if (!ext && !is_elem(d, "DeviceType")) {
      error_at(line_of(d), "unexpected <%s> in DeviceTypes", d->name);
      continue;
    }
    char *id = name_attr(d, "id");
    if (!id)
      continue;
    if (find_type(g, id))
      error_at(line_of(d), "device type '%s' is declared twice", id);
    g->types = room(g->types, g->ntypes, &cap, sizeof(DevType));
    DevType *t = &g->types[g->ntypes++];
    memset(t, 0, sizeof *t);
    t->id = id;
    t->external = ext;
    snprintf(what, sizeof what, "%s '%s'", ext ? "ExternalType" : "DeviceType", id);
    t->props = required_spec(d, "Properties", what);
    t->state = required_spec(d, "State", what);
    if (!ext)
      required_code(d, "ReadyToSend", what);
    load_pins(g, t, d);
  }
  return true;
}

//
// The instance
//

static bool only_attrs(xmlNode *e, const char *const *allowed) {
  bool ok = true;
  for (xmlAttr *a = e->properties; a; a = a->next) {
    bool found = false;
    for (int i = 0; allowed[i]; i++)
      found |= !strcmp((const char *)a->name, allowed[i]);
    if (!found) {
      error_at(line_of(e), "<%s> has attribute '%s', which graph_schema's streaming reader rejects", e->name, a->name);
      ok = false;
    }
  }
  return ok;
}

static void no_content(xmlNode *e) {
  for (xmlNode *c = e->children; c; c = c->next) {
    if (c->type == XML_ELEMENT_NODE) {
      error_at(line_of(c), "<%s> inside <%s>, which graph_schema's streaming reader rejects", c->name, e->name);
      return;
    }
    if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
      for (const xmlChar *p = c->content; p && *p; p++)
        if (!isspace(*p)) {
          error_at(line_of(e), "text inside <%s>, which graph_schema's streaming reader rejects", e->name);
          return;
        }
    }
  }
}

static const char *const dev_attrs[] = {"id", "type", "P", "S", NULL};
static const char *const edge_attrs[] = {"path", "sendIndex", "P", "S", NULL};

// The GraphInstance element itself: its attributes and P.
static void check_instance_head(xmlNode *gi, GraphType *g) {
  static const char *const gi_attrs[] = {"id", "graphTypeId", "P", NULL};
  only_attrs(gi, gi_attrs);
  char *id = name_attr(gi, "id"), *tid = name_attr(gi, "graphTypeId");
  if (tid && g->id && strcmp(tid, g->id))
    error_at(line_of(gi), "GraphInstance's graphTypeId '%s' is not the GraphType's id '%s'", tid, g->id);
  check_value(gi, "P", g->props, "the GraphInstance");
  xmlFree(id);
  xmlFree(tid);
}

// Buckets for a table of N device ids: libxml2 (2.9) grows a hash table
// to 16384 buckets at most, so millions of ids would make chains of
// hundreds; sized up front, lookups stay short.
static int id_buckets(long n) { return n < 1024 ? 1024 : n > (1L << 24) ? 1 << 24 : (int)n; }

// One child of DeviceInstances; devs maps the ids so far to their types.
static void check_device(xmlNode *d, GraphType *g, xmlHashTablePtr devs, bool *warned_ext) {
  bool ext = is_elem(d, "ExtI");
  if (!ext && !is_elem(d, "DevI")) {
    error_at(line_of(d), "unexpected <%s> in DeviceInstances", d->name);
    return;
  }
  only_attrs(d, dev_attrs);
  no_content(d);
  char *did = name_attr(d, "id"), *type = name_attr(d, "type");
  DevType *t = type ? find_type(g, type) : NULL;
  if (type && !t)
    error_at(line_of(d), "device '%s': unknown type '%s'", did ? did : "?", type);
  else if (t && t->external != ext)
    error_at(line_of(d), "device '%s': <%s> of %s '%s'", did ? did : "?", d->name,
             t->external ? "ExternalType" : "DeviceType", type);
  if (ext && t && !*warned_ext) { // a warning: the file is right, their reader is not
    fprintf(stderr, "%s:%ld: warning: ExtI '%s': graph_schema's streaming C++ reader (4.4) crashes on any external "
                    "instance (it gives external types no State); its whole-file readers load it\n",
            file, line_of(d), did ? did : "?");
    *warned_ext = true;
  }
  if (did && t) {
    if (xmlHashAddEntry(devs, BAD_CAST did, t) != 0)
      error_at(line_of(d), "device '%s' is declared twice", did);
    char what[300];
    snprintf(what, sizeof what, "device '%s'", did);
    check_value(d, "P", t->props, what);
    check_value(d, "S", t->state, what);
  }
  xmlFree(did);
  xmlFree(type);
}

// One child of EdgeInstances: dstDev:dstPin-srcDev:srcPin, each a name.
static void check_edge(xmlNode *e, xmlHashTablePtr devs) {
  if (!is_elem(e, "EdgeI")) {
    error_at(line_of(e), "unexpected <%s> in EdgeInstances", e->name);
    return;
  }
  only_attrs(e, edge_attrs);
  no_content(e);
  char *path = attr(e, "path");
  char part[4][256];
  int n = 0;
  if (path) {
    const char *p = path;
    const char seps[] = ":-:";
    for (n = 0; n < 4; n++) {
      size_t k = 0;
      while (p[k] && (isalnum((unsigned char)p[k]) || p[k] == '_') && k < sizeof part[n] - 1)
        k++;
      memcpy(part[n], p, k);
      part[n][k] = 0;
      if (!k || (n < 3 ? p[k] != seps[n] : p[k] != 0))
        break;
      p += k + 1;
    }
  }
  if (n != 4) {
    error_at(line_of(e), "EdgeI path '%s' is not dstDevice:dstPin-srcDevice:srcPin of names", path ? path : "(none)");
    xmlFree(path);
    return;
  }
  DevType *dt = xmlHashLookup(devs, BAD_CAST part[0]), *st = xmlHashLookup(devs, BAD_CAST part[2]);
  Pin *dp = dt ? find_pin(dt, part[1], false) : NULL, *sp = st ? find_pin(st, part[3], true) : NULL;
  if (!dt || !st)
    error_at(line_of(e), "edge '%s': no device '%s'", path, dt ? part[2] : part[0]);
  else if (!dp || !sp)
    error_at(line_of(e), "edge '%s': device type '%s' has no %s pin '%s'", path, dp ? st->id : dt->id,
             dp ? "output" : "input", dp ? part[3] : part[1]);
  else if (strcmp(dp->msg, sp->msg))
    error_at(line_of(e), "edge '%s': joins message types '%s' and '%s'", path, sp->msg, dp->msg);
  else {
    char what[600];
    snprintf(what, sizeof what, "edge '%s'", path);
    check_value(e, "P", dp->props, what);
    check_value(e, "S", dp->state, what);
  }
  xmlFree(path);
}

static void check_instance(xmlNode *gi, GraphType *g) {
  check_instance_head(gi, g);
  xmlNode *dis = NULL, *eis = NULL;
  for (xmlNode *c = gi->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE)
      continue;
    if (is_elem(c, "DeviceInstances") && !dis && !eis)
      dis = c;
    else if (is_elem(c, "EdgeInstances") && dis && !eis)
      eis = c;
    else
      error_at(line_of(c), "unexpected <%s> in GraphInstance (the readers take one DeviceInstances, then one "
                           "EdgeInstances)", c->name);
  }
  if (!dis || !eis) {
    error_at(line_of(gi), "GraphInstance has no <%s>", dis ? "EdgeInstances" : "DeviceInstances");
    return;
  }
  static const char *const none[] = {NULL};
  only_attrs(dis, none);
  only_attrs(eis, none);
  xmlHashTablePtr devs = xmlHashCreate(id_buckets(count_children(dis, "DevI") + count_children(dis, "ExtI")));
  bool warned_ext = false;
  for (xmlNode *d = dis->children; d; d = d->next)
    if (d->type == XML_ELEMENT_NODE)
      check_device(d, g, devs, &warned_ext);
  for (xmlNode *e = eis->children; e; e = e->next)
    if (e->type == XML_ELEMENT_NODE)
      check_edge(e, devs);
  xmlHashFree(devs, NULL);
}

static void free_graph_type(GraphType *g) {
  for (int i = 0; i < g->ntypes; i++) {
    DevType *t = &g->types[i];
    for (int j = 0; j < t->npins; j++) {
      xmlFree(t->pins[j].name);
      xmlFree(t->pins[j].msg);
      free_spec(t->pins[j].props);
      free_spec(t->pins[j].state);
    }
    free(t->pins);
    xmlFree(t->id);
    free_spec(t->props);
    free_spec(t->state);
  }
  free(g->types);
  if (g->msgs)
    xmlHashFree(g->msgs, NULL);
  free_spec(g->props);
  xmlFree(g->id);
}

//
// --code FILE: the graph type's code as one translation unit, each handler a
// function with the scope graph_schema's generated C++ gives it (types named
// as their code generator names them, packed; the device type's shared code
// and handlers in namespace ns_<type> when compiled as C++), so that
// `cc -fsyntax-only` and `c++ -fsyntax-only` show whether the code is
// self-contained C that compiles as C++ too.
//

// A type name from the graph's, a device type's and a pin's ids (valid until the next call).
static const char *format_name(const char *fmt, const char *a, const char *b, const char *c) {
  static char buf[1024];
  snprintf(buf, sizeof buf, fmt, a, b, c);
  return buf;
}

static char *text_of(xmlNode *parent, const char *name) {
  xmlNode *c = parent ? child(parent, name) : NULL;
  xmlChar *s = c ? xmlNodeGetContent(c) : NULL;
  char *r = xstrdup(s ? (const char *)s : "");
  xmlFree(s);
  return r;
}

// A struct of the declarations in NAME under parent (a dummy member when
// there are none: C has no empty structs).
static void code_struct(FILE *o, xmlNode *parent, const char *name, const char *type) {
  char *decls = text_of(parent, name);
  Lex lx = {decls, 0, 0, false};
  Member *ms = NULL;
  int n = 0;
  bool ok = parse_members(&lx, &ms, &n, false);
  fprintf(o, "typedef struct {\n%s%s} %s;\n", decls, ok && n ? "\n" : "\nuint8_t poets_empty_;\n", type);
  free_members(ms, n);
  free(decls);
}

static void code_body(FILE *o, xmlNode *parent, const char *name, const char *unused) {
  char *code = text_of(parent, name);
  fprintf(o, "{\n  (void)graphProperties, (void)deviceProperties, (void)deviceState;%s\n%s\n}\n", unused, code);
  free(code);
}

static void code_device_type(FILE *o, const char *g, xmlNode *dt) {
  char *d = attr(dt, "id");
  const char *scope = "const %s_properties_t *graphProperties, const %s_%s_properties_t *deviceProperties, ";
  code_struct(o, dt, "Properties", format_name("%s_%s_properties_t", g, d, ""));
  code_struct(o, dt, "State", format_name("%s_%s_state_t", g, d, ""));
  fprintf(o, "#ifdef __cplusplus\nnamespace ns_%s {\n#endif\n", d);
  char *shared = text_of(dt, "SharedCode");
  fprintf(o, "%s\n", shared);
  free(shared);
  for (xmlNode *p = dt->children; p; p = p->next) {
    bool in = is_elem(p, "InputPin"), out = is_elem(p, "OutputPin");
    if (!in && !out)
      continue;
    char *pin = attr(p, "name"), *m = attr(p, "messageTypeId");
    if (in) {
      code_struct(o, p, "Properties", format_name("%s_%s_%s_properties_t", g, d, pin));
      fprintf(o, "static void %s_%s_recv(", d, pin);
      fprintf(o, scope, g, g, d);
      fprintf(o, "%s_%s_state_t *deviceState, const %s_%s_%s_properties_t *edgeProperties, const %s_%s_message_t *message)\n",
              g, d, g, d, pin, g, m);
      code_body(o, p, "OnReceive", " (void)edgeProperties, (void)message;");
    } else {
      fprintf(o, "static void %s_%s_send(", d, pin);
      fprintf(o, scope, g, g, d);
      fprintf(o, "%s_%s_state_t *deviceState, %s_%s_message_t *message, bool *doSend)\n", g, d, g, m);
      code_body(o, p, "OnSend", " (void)message, (void)doSend;");
    }
    xmlFree(pin);
    xmlFree(m);
  }
  fprintf(o, "static void %s_rts(", d);
  fprintf(o, scope, g, g, d);
  fprintf(o, "const %s_%s_state_t *deviceState, uint32_t *readyToSend)\n", g, d);
  code_body(o, dt, "ReadyToSend", " (void)readyToSend;");
  fprintf(o, "static void %s_init(", d);
  fprintf(o, scope, g, g, d);
  fprintf(o, "%s_%s_state_t *deviceState)\n", g, d);
  code_body(o, dt, "OnInit", "");
  fprintf(o, "#ifdef __cplusplus\n}\n#endif\n");
  xmlFree(d);
}

static void write_code(FILE *o, xmlNode *gt) {
  char *g = attr(gt, "id");
  fprintf(o, "// The code of graph type %s as graph_schema's generated C++ scopes it (poets_check --code).\n", g);
  fprintf(o, "#include <stdbool.h>\n#include <stdint.h>\n#include <string.h>\n");
  fprintf(o, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n"
             "void handler_log(int level, const char *fmt, ...);\nvoid handler_exit(int code);\n"
             "#ifdef __cplusplus\n}\n#endif\n#pragma pack(push, 1)\n");
  code_struct(o, gt, "Properties", format_name("%s_properties_t", g, "", ""));
  xmlNode *mts = child(gt, "MessageTypes"), *dts = child(gt, "DeviceTypes");
  for (xmlNode *m = mts ? mts->children : NULL; m; m = m->next)
    if (is_elem(m, "MessageType")) {
      char *id = attr(m, "id");
      code_struct(o, m, "Message", format_name("%s_%s_message_t", g, id, ""));
      xmlFree(id);
    }
  char *shared = text_of(gt, "SharedCode");
  fprintf(o, "%s\n", shared);
  free(shared);
  for (xmlNode *dt = dts ? dts->children : NULL; dt; dt = dt->next)
    if (is_elem(dt, "DeviceType"))
      code_device_type(o, g, dt);
  fprintf(o, "#pragma pack(pop)\n");
  xmlFree(g);
}

#define READ_OPTIONS (XML_PARSE_NONET | XML_PARSE_HUGE | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING)

static const char *code_path; // --code FILE

static int check_doc(const char *path, xmlDoc *doc, bool type_only) {
  file = path;
  errors = 0;
  if (!doc) {
    fprintf(stderr, "%s: error: cannot read or parse as XML\n", path);
    return 2;
  }
  xmlNode *root = xmlDocGetRootElement(doc);
  if (!root || !is_elem(root, "Graphs") || !in_v4(root)) {
    error_at(line_of(root), "the root element is not Graphs in namespace " V4_NS);
  } else {
    xmlNode *gt = NULL, *gi = NULL;
    for (xmlNode *c = root->children; c; c = c->next) {
      if (c->type != XML_ELEMENT_NODE)
        continue;
      if (!in_v4(c))
        error_at(line_of(c), "<%s> is not in namespace " V4_NS, c->name);
      else if (is_elem(c, "GraphType") && !gt && !gi)
        gt = c;
      else if (is_elem(c, "GraphInstance") && gt && !gi)
        gi = c;
      else if (is_elem(c, "GraphInstance") && !gt)
        error_at(line_of(c), "GraphInstance before any GraphType (their readers want the type first, in the same file)");
      else
        error_at(line_of(c), "unexpected <%s> in Graphs (the readers take one GraphType, then one GraphInstance)",
                 c->name);
    }
    GraphType g = {0};
    if (!gt)
      error_at(line_of(root), "Graphs has no GraphType");
    else if (load_graph_type(gt, &g) && gi)
      check_instance(gi, &g);
    if (gt && !gi && !type_only)
      error_at(line_of(root), "Graphs has no GraphInstance (graph_schema's readers load a type and its instance from "
                              "one file; --type-only checks a type alone)");
    if (code_path && gt && !errors) {
      FILE *o = fopen(code_path, "w");
      if (o)
        write_code(o, gt);
      if (!o || fclose(o) != 0)
        error_at(0, "cannot write the code to '%s'", code_path);
    }
    free_graph_type(&g);
  }
  xmlFreeDoc(doc);
  if (errors > MAX_ERRORS)
    fprintf(stderr, "%s: %d errors (the first %d shown)\n", path, errors, MAX_ERRORS);
  return errors ? 1 : 0;
}

// Streaming: libxml2's reader holds the GraphType's subtree, the device ids
// and one instance element at a time, not the whole file's tree (about 12
// times the file, as for graph_schema's whole-file readers), so files of
// millions of devices can be checked. The same checks and messages as the
// tree; used with --stream and for files over STREAM_BYTES.
#define STREAM_BYTES (64L << 20)

typedef struct {
  xmlTextReaderPtr r;
  GraphType g;
  xmlHashTablePtr devs;
  bool root_ok, have_gt, have_gi, loaded, warned_ext;
  int section;   // in GraphInstance: 1 DeviceInstances, 2 EdgeInstances
  long root_line, gi_line;
} Stream;

// An element at depth 1: returns the reader's next status.
static int stream_top(Stream *s, xmlNode *n) {
  if (!in_v4(n)) {
    error_at(line_of(n), "<%s> is not in namespace " V4_NS, n->name);
  } else if (is_elem(n, "GraphType") && !s->have_gt && !s->have_gi) {
    s->have_gt = true;
    xmlNode *gt = xmlTextReaderExpand(s->r);
    s->loaded = gt && load_graph_type(gt, &s->g);
  } else if (is_elem(n, "GraphInstance") && s->have_gt && !s->have_gi) {
    s->have_gi = true;
    s->gi_line = line_of(n);
    if (s->loaded)
      check_instance_head(n, &s->g);
    return xmlTextReaderRead(s->r); // into it
  } else if (is_elem(n, "GraphInstance") && !s->have_gt) {
    error_at(line_of(n), "GraphInstance before any GraphType (their readers want the type first, in the same file)");
  } else {
    error_at(line_of(n), "unexpected <%s> in Graphs (the readers take one GraphType, then one GraphInstance)", n->name);
  }
  return xmlTextReaderNext(s->r);
}

// An element inside the GraphInstance (depth 2 or 3).
static int stream_instance(Stream *s, xmlNode *n, int depth) {
  static const char *const none[] = {NULL};
  if (depth == 2) {
    if (is_elem(n, "DeviceInstances") && s->section == 0)
      s->section = 1;
    else if (is_elem(n, "EdgeInstances") && s->section == 1)
      s->section = 2;
    else {
      error_at(line_of(n), "unexpected <%s> in GraphInstance (the readers take one DeviceInstances, then one "
                           "EdgeInstances)", n->name);
      return xmlTextReaderNext(s->r);
    }
    only_attrs(n, none);
    return xmlTextReaderRead(s->r);
  }
  xmlNode *e = xmlTextReaderExpand(s->r);
  if (e && s->section == 1)
    check_device(e, &s->g, s->devs, &s->warned_ext);
  else if (e)
    check_edge(e, s->devs);
  return xmlTextReaderNext(s->r);
}

static int check_stream(const char *path, xmlTextReaderPtr reader, long bytes, bool type_only) {
  file = path;
  errors = 0;
  Stream s = {reader, {0}, xmlHashCreate(id_buckets(bytes / 1024)), false, false, false, false, false, // ~900 B a device
              0, 0, 0};
  int ret = s.r ? xmlTextReaderRead(s.r) : -1;
  while (ret == 1) {
    xmlNode *n = xmlTextReaderCurrentNode(s.r);
    int depth = xmlTextReaderDepth(s.r);
    if (xmlTextReaderNodeType(s.r) != XML_READER_TYPE_ELEMENT || !n) {
      ret = xmlTextReaderRead(s.r);
    } else if (depth == 0) {
      s.root_ok = is_elem(n, "Graphs") && in_v4(n);
      s.root_line = line_of(n);
      if (!s.root_ok)
        error_at(line_of(n), "the root element is not Graphs in namespace " V4_NS);
      ret = s.root_ok ? xmlTextReaderRead(s.r) : xmlTextReaderNext(s.r); // to the end: is it XML?
    } else if (depth == 1) {
      ret = stream_top(&s, n);
    } else if (s.have_gi && s.loaded && (depth == 2 || (depth == 3 && s.section))) {
      ret = stream_instance(&s, n, depth);
    } else {
      ret = xmlTextReaderNext(s.r);
    }
  }
  if (ret < 0) {
    fprintf(stderr, "%s: error: cannot read or parse as XML\n", path);
  } else if (s.root_ok) {
    if (s.have_gi && s.loaded && s.section < 2)
      error_at(s.gi_line, "GraphInstance has no <%s>", s.section ? "EdgeInstances" : "DeviceInstances");
    if (!s.have_gt)
      error_at(s.root_line, "Graphs has no GraphType");
    if (s.have_gt && !s.have_gi && !type_only)
      error_at(s.root_line, "Graphs has no GraphInstance (graph_schema's readers load a type and its instance from "
                  "one file; --type-only checks a type alone)");
  }
  xmlHashFree(s.devs, NULL);
  free_graph_type(&s.g);
  if (s.r)
    xmlFreeTextReader(s.r);
  if (ret < 0)
    return 2;
  if (errors > MAX_ERRORS)
    fprintf(stderr, "%s: %d errors (the first %d shown)\n", path, errors, MAX_ERRORS);
  return errors ? 1 : 0;
}

static bool stream_mode; // --stream

static int check_file(const char *path, bool type_only) {
  struct stat st;
  if (!code_path && (stream_mode || (stat(path, &st) == 0 && st.st_size > STREAM_BYTES)))
    return check_stream(path, xmlReaderForFile(path, NULL, READ_OPTIONS), (long)st.st_size, type_only);
  return check_doc(path, xmlReadFile(path, NULL, READ_OPTIONS), type_only);
}

// The same check on a file's bytes (tests/fuzz/poets: the harness).
int poets_check_buffer(const char *name, const char *data, int size, bool type_only) {
  return check_doc(name, xmlReadMemory(data, size, name, NULL, READ_OPTIONS | XML_PARSE_NOERROR), type_only);
}

// The same with the streaming reader.
int poets_check_buffer_stream(const char *name, const char *data, int size, bool type_only) {
  return check_stream(name, xmlReaderForMemory(data, size, name, NULL, READ_OPTIONS | XML_PARSE_NOERROR), size, type_only);
}

#ifndef POETS_CHECK_NO_MAIN
int main(int argc, char **argv) {
  bool type_only = false;
  int first = 1, rc = 0;
  for (;;) {
    if (first < argc && !strcmp(argv[first], "--type-only"))
      type_only = true, first++;
    else if (first < argc && !strcmp(argv[first], "--stream"))
      stream_mode = true, first++;
    else if (first + 1 < argc && !strcmp(argv[first], "--code"))
      code_path = argv[first + 1], first += 2;
    else
      break;
  }
  if (first >= argc || argv[first][0] == '-' || (code_path && (first + 1 != argc || stream_mode))) {
    fprintf(stderr, "usage: poets_check [--type-only] [--stream | --code OUT.c] FILE.xml...\n"
                    "Checks POETS graph XML (v4) against the rules of graph_schema's readers.\n"
                    "--code (one FILE): also writes the graph type's code as one C/C++ translation unit,\n"
                    "each handler in the scope graph_schema's generated code gives it.\n"
                    "--stream: read with libxml2's streaming reader, as for files over 64 MiB.\n");
    return 2;
  }
  xmlInitParser();
  for (int i = first; i < argc; i++) {
    int r = check_file(argv[i], type_only);
    rc = r > rc ? r : rc;
  }
  xmlCleanupParser();
  return rc;
}
#endif
