/*
 * report.c: what a tinsel executable reports at exit, on request.
 *
 *   OP2_TINSEL_STATS=1      messages per invocation on stderr: the seed's
 *                           per-device count (a begin and an end per
 *                           device that takes part, op2t_takes_part;
 *                           one message per edge), the
 *                           per-device protocol (a read once per device
 *                           and pin, multicast to its edges) and what went
 *                           on the wire (begin per thread, ends up the
 *                           tree: threads and mailboxes shown), and how
 *                           many arrived before their device's begin
 *   OP2_EMIT_INSTANCE=FILE  the graph type and instance (devices, properties,
 *                           the edges of each invocation's latest call) in
 *                           one POETS XML v4 file; with
 *                           OP2_EMIT_INSTANCE_ALONE=1 the instance alone, for
 *                           the graph type of op2c --emit-xml
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "op2t_internal.h"

const char *op2t_instance_path;
static op2t_inv_record *records;
static int want_stats;

static void report_at_exit(void);

void op2t_report_init(void) {
  const op2t_graph *g = &op2t_graph_info;
  records = op2t_calloc((size_t)g->ninvocations + 1, sizeof(op2t_inv_record));
  const char *s = getenv("OP2_TINSEL_STATS");
  want_stats = s && *s && strcmp(s, "0") != 0;
  const char *p = getenv("OP2_EMIT_INSTANCE");
  op2t_instance_path = p && *p ? p : NULL;
  if (want_stats || op2t_instance_path)
    atexit(report_at_exit);
}

op2t_inv_record *op2t_record(const op2t_invocation *inv) {
  const op2t_graph *g = &op2t_graph_info;
  for (int i = 0; i < g->ninvocations; i++)
    if (g->invocations[i] == inv)
      return &records[i];
  op2t_fatal("invocation %s is not in graph %s", inv->name, g->id);
}

/* Keeps a copy of the call's edges and props for the instance writer. */
void op2t_record_call(op2t_inv_record *rec, const op2t_invocation *inv, const op2t_fanouts *fs,
                      const op2t_devs *devs) {
  const op2t_graph *g = &op2t_graph_info;
  rec->seen = 1;
  if (!op2t_instance_path)
    return;
  op2t_free_edges(&rec->last);
  if (!rec->last_props) {
    rec->last_props = op2t_calloc((size_t)g->ntypes, sizeof(char *));
    rec->last_n = op2t_calloc((size_t)g->ntypes, sizeof(int));
  }
  rec->last.n = fs->n;
  rec->last.f = op2t_calloc((size_t)fs->n, sizeof(op2t_fanout));
  for (int i = 0; i < fs->n; i++) {
    const op2t_fanout *f = &fs->f[i];
    int n = devs[f->type].n;
    op2t_fanout *c = &rec->last.f[i];
    *c = *f;
    c->start = op2t_calloc((size_t)n + 1, sizeof(int));
    memcpy(c->start, f->start, sizeof(int) * ((size_t)n + 1));
    c->edges = op2t_calloc((size_t)f->start[n] + 1, sizeof(op2t_edge));
    memcpy(c->edges, f->edges, sizeof(op2t_edge) * (size_t)f->start[n]);
  }
  for (int t = 0; t < g->ntypes; t++) {
    free(rec->last_props[t]);
    rec->last_n[t] = devs[t].n;
    rec->last_props[t] = op2t_calloc((size_t)devs[t].n, (size_t)devs[t].props_bytes);
    if (devs[t].n)
      memcpy(rec->last_props[t], devs[t].props, (size_t)devs[t].n * devs[t].props_bytes);
  }
  (void)inv;
}

/* --- What the self-contained file needs beyond the type and the edges. */

#define STEP_WORDS (1 + SS_MAX_PAYLOAD / 4) /* the invocation, then its begin message */

static struct {
  uint32_t (*steps)[STEP_WORDS];
  long nsteps, cap;
  char *first_props;    /* the graph properties at the first call */
  int consts_changed;   /* op_decl_const changed them after it */
  char **first_state;   /* [ntypes]: the states as the devices first got each dat */
  int *first_n;         /* [ntypes] devices in first_state */
  int **pushed;         /* [ntypes]: offsets captured, -1 ended */
} inst;

void op2t_record_step(int k, const char *begin, int bytes, const char *graph_props) {
  const op2t_graph *g = &op2t_graph_info;
  if (!op2t_instance_path)
    return;
  if (bytes > (STEP_WORDS - 1) * 4)
    op2t_fatal("%s: a begin message of %d bytes, more than the %d the instance writer keeps",
               g->invocations[k]->name, bytes, (STEP_WORDS - 1) * 4);
  if (!inst.first_props) {
    inst.first_props = op2t_calloc((size_t)g->props_bytes + 1, 1);
    memcpy(inst.first_props, graph_props, (size_t)g->props_bytes);
  } else if (memcmp(inst.first_props, graph_props, (size_t)g->props_bytes)) {
    inst.consts_changed = 1;
  }
  if (inst.nsteps == inst.cap) {
    inst.cap = inst.cap ? 2 * inst.cap : 1024;
    inst.steps = realloc(inst.steps, (size_t)inst.cap * sizeof(*inst.steps));
    if (!inst.steps)
      op2t_fatal("out of memory keeping %ld calls for the instance", inst.cap);
  }
  uint32_t *s = inst.steps[inst.nsteps++];
  memset(s, 0, sizeof(*inst.steps));
  s[0] = (uint32_t)k;
  memcpy(s + 1, begin, (size_t)bytes);
}

/* The devices of TYPE just got a dat at OFF: its first values, unless an
 * earlier dat was there first. */
void op2t_record_push(int type, int off, int bytes) {
  const op2t_graph *g = &op2t_graph_info;
  if (!op2t_instance_path)
    return;
  if (!inst.first_state) {
    inst.first_state = op2t_calloc((size_t)g->ntypes + 1, sizeof(char *));
    inst.first_n = op2t_calloc((size_t)g->ntypes + 1, sizeof(int));
    inst.pushed = op2t_calloc((size_t)g->ntypes + 1, sizeof(int *));
  }
  const op2t_devs *d = &op2t_bound_devs()[type];
  if (!inst.first_state[type]) {
    inst.first_state[type] = op2t_calloc((size_t)d->n + 1, (size_t)d->state_bytes);
    inst.first_n[type] = d->n;
    inst.pushed[type] = op2t_calloc(1, sizeof(int));
    inst.pushed[type][0] = -1;
  }
  int n = 0;
  while (inst.pushed[type][n] >= 0)
    if (inst.pushed[type][n++] == off)
      return;
  if (d->n != inst.first_n[type])
    return; /* another binding: keep the first one's */
  inst.pushed[type] = realloc(inst.pushed[type], sizeof(int) * ((size_t)n + 2));
  if (!inst.pushed[type])
    op2t_fatal("out of memory");
  inst.pushed[type][n] = off;
  inst.pushed[type][n + 1] = -1;
  for (int e = 0; e < d->n; e++)
    memcpy(inst.first_state[type] + (size_t)e * d->state_bytes + off, d->state + (size_t)e * d->state_bytes + off,
           (size_t)bytes);
}

static long nonfinite;

static void put_scalar(FILE *f, int kind, const char *p) {
  switch (kind) {
#define INT_CASE(K, T, FMT, CAST) \
  case K: { T v; memcpy(&v, p, sizeof v); fprintf(f, FMT, (CAST)v); break; }
  INT_CASE(OP2T_M_I8, int8_t, "%d", int)
  INT_CASE(OP2T_M_U8, uint8_t, "%u", unsigned)
  INT_CASE(OP2T_M_I16, int16_t, "%d", int)
  INT_CASE(OP2T_M_U16, uint16_t, "%u", unsigned)
  INT_CASE(OP2T_M_I32, int32_t, "%ld", long)
  INT_CASE(OP2T_M_U32, uint32_t, "%lu", unsigned long)
  INT_CASE(OP2T_M_I64, int64_t, "%lld", long long)
  INT_CASE(OP2T_M_U64, uint64_t, "%llu", unsigned long long)
#undef INT_CASE
  default: { /* floats: decimal, enough digits to read back the same value; readers take no inf or nan */
    double v;
    if (kind == OP2T_M_F32) {
      float x;
      memcpy(&x, p, sizeof x);
      v = x;
    } else {
      memcpy(&v, p, sizeof v);
    }
    if (!isfinite(v)) {
      nonfinite++;
      v = 0;
    }
    fprintf(f, kind == OP2T_M_F32 ? "%.9g" : "%.17g", v);
  }
  }
}

static int member_size(int kind) {
  static const int size[] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
  return size[kind];
}

/* A struct's value as positional braces, a value per member. */
static void put_members(FILE *f, const op2t_member *m, int n, const char *bytes) {
  fputc('{', f);
  for (int i = 0; i < n; i++) {
    const char *p = bytes + m[i].off;
    int sz = member_size(m[i].kind), n1 = m[i].n1, n2 = m[i].n2;
    fputs(i ? ", " : "", f);
    if (!n1) {
      put_scalar(f, m[i].kind, p);
      continue;
    }
    fputc('{', f);
    for (int a = 0; a < n1; a++) {
      fputs(a ? ", " : "", f);
      if (!n2) {
        put_scalar(f, m[i].kind, p + (size_t)a * sz);
        continue;
      }
      fputc('{', f);
      for (int b = 0; b < n2; b++) {
        fputs(b ? ", " : "", f);
        put_scalar(f, m[i].kind, p + ((size_t)a * n2 + b) * sz);
      }
      fputc('}', f);
    }
    fputc('}', f);
  }
  fputc('}', f);
}

static void print_stats(void) {
  const op2t_graph *g = &op2t_graph_info;
  fprintf(stderr, "\nop2 tinsel: messages per invocation (%s engine, %s; per call, averaged)\n", op2t_current_engine()->name, op2t_grain());
  fprintf(stderr, "  %-16s %6s %8s %7s %6s %8s %8s %7s %10s %10s %10s %10s %10s %10s %8s\n", "invocation", "calls",
          "devices", "threads", "mboxes", "begin", "end", "to_host", "read_sends", "read_edges", "writes", "seed", "per_device",
          "sent", "early");
  for (int i = 0; i < g->ninvocations; i++) {
    const op2t_counts *c = &records[i].counts;
    if (!c->calls)
      continue;
    /* The seed's count: a begin and an end per device, every edge a
     * message. The per-device protocol sends a read once per (device,
     * pin), multicast to its edges, and a device's writes once per write
     * pin (an element's writes share one, op2c's write groups), multicast
     * to the elements they go to. Sent: what went on the wire here (begin
     * per thread and ends up the tree, unless OP2_TINSEL_BEGIN_END=device). */
    long seed = 2 * c->devices + c->read_edges + c->write_edges;
    long per_device = 2 * c->devices + c->read_sends + c->write_sends;
    long sent = c->begin + c->end + c->read_sends + c->write_sends;
    long k = c->calls;
    fprintf(stderr, "  %-16s %6ld %8ld %7ld %6ld %8ld %8ld %7ld %10ld %10ld %10ld %10ld %10ld %10ld %8ld\n",
            g->invocations[i]->name, k, c->devices / k, c->threads / k, c->mboxes / k, c->begin / k, c->end / k,
            c->host_ends / k,
            c->read_sends / k, c->read_edges / k, c->write_edges / k, seed / k, per_device / k, sent / k,
            c->early / k);
  }
  const op2t_dat_counts *m = op2t_dat_moves();
  fprintf(stderr, "  dats: %ld copied to the devices, %ld brought back for %ld host reads (resident between invocations)\n",
          m->to_devices, m->to_host, m->host_reads);
  fprintf(stderr, "  calls that wrote a global the host waited for only where it used it: %ld\n",
          op2t_deferred_calls());
  if (op2t_land_on())
    fprintf(stderr, "  reads the host landed in the readers' pads (never written on the devices): %ld\n", op2t_landed());
  else
    fprintf(stderr, "  reads the host landed: none (OP2_TINSEL_LAND=send, OP2_TINSEL_RESEND=always or OP2_EMIT_INSTANCE)\n");
}

/* The type, with the number of calls in the controller's Properties. */
static void put_type(FILE *f, const char *type_xml, long nsteps) {
  static const char token[] = "@OP2_CONTROLLER_STEPS@"; /* graph.h OP2_CONTROLLER_STEPS */
  const char *at = strstr(type_xml, token);
  if (!at) {
    fputs(type_xml, f);
    return;
  }
  fwrite(type_xml, 1, (size_t)(at - type_xml), f);
  fprintf(f, "%ld", nsteps > 0 ? nsteps : 1);
  fputs(at + sizeof token - 1, f);
}

/* The controller device: the calls to replay, and how many devices answer
 * each invocation (graph_xml.c write_controller_device). */
static void put_controller(FILE *f) {
  const op2t_graph *g = &op2t_graph_info;
  fprintf(f, "      <DevI id=\"host\" type=\"controller\" P=\"{%ld, {", inst.nsteps);
  for (int i = 0; i < (g->ninvocations ? g->ninvocations : 1); i++) {
    long ends = 0;
    for (int j = 0; i < g->ninvocations && records[i].seen && j < g->invocations[i]->ninvolved; j++)
      ends += records[i].last_n[g->invocations[i]->involved[j].type];
    fprintf(f, "%s%ld", i ? ", " : "", ends);
  }
  fputs("}, {", f);
  for (long s = 0; s < (inst.nsteps ? inst.nsteps : 1); s++) {
    fputs(s ? ", {" : "{", f);
    for (int w = 0; w < STEP_WORDS; w++)
      fprintf(f, "%s%lu", w ? ", " : "", s < inst.nsteps ? (unsigned long)inst.steps[s][w] : 0ul);
    fputc('}', f);
  }
  fputs("}}\"/>\n", f);
}

/* Device e of type t's props: its index, and each invocation's fields
 * (<inv>_write_recv_total, on the iteration type <inv>_idx<i>) from that
 * invocation's latest call, 0 for one not called or not reaching it. */
static void device_props(char *buf, int t, int e) {
  const op2t_graph *g = &op2t_graph_info;
  const op2t_type *ty = &g->types[t];
  int32_t index = e;
  memset(buf, 0, (size_t)ty->props_bytes);
  memcpy(buf + ty->index_off, &index, sizeof(index));
  for (int i = 0; i < g->ninvocations; i++) {
    const op2t_invocation *inv = g->invocations[i];
    if (!records[i].seen || e >= records[i].last_n[t])
      continue;
    const char *rp = records[i].last_props[t] + (size_t)e * ty->props_bytes;
    for (int j = 0; j < inv->ninvolved; j++)
      if (inv->involved[j].type == t)
        memcpy(buf + inv->involved[j].total_off, rp + inv->involved[j].total_off, sizeof(uint16_t));
    for (int a = 0; a < inv->nargs; a++)
      if (inv->iter_type == t && inv->args[a].idx_off >= 0)
        memcpy(buf + inv->args[a].idx_off, rp + inv->args[a].idx_off, sizeof(int32_t));
  }
}

/* Writes the instance: after the graph type (op2t_graph_info.type_xml), so
 * one file holds both as POETS readers want, or alone (alone=1, or no type
 * was embedded) for the type file of op2c --emit-xml. Initialisers are
 * positional (a value per member, in declaration order), as the readers
 * parse them, written from the bytes by op2c's member tables. */
static struct {
  long devices, edges;
} written;

static int max_props_bytes(void) {
  int m = 0;
  for (int t = 0; t < op2t_graph_info.ntypes; t++)
    m = op2t_graph_info.types[t].props_bytes > m ? op2t_graph_info.types[t].props_bytes : m;
  return m;
}

static void write_instance(FILE *f, int alone) {
  const op2t_graph *g = &op2t_graph_info;
  int controller = !alone && g->type_xml;
  if (controller) {
    put_type(f, g->type_xml, inst.nsteps);
  } else {
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<Graphs xmlns=\"https://poets-project.org/schemas/virtual-graph-schema-v4\" "
               "formatMinorVersion=\"0\" appname=\"%s\">\n", g->id);
  }
  fprintf(f, "  <GraphInstance id=\"%s_instance\" graphTypeId=\"%s\"", g->id, g->id);
  if (g->ngprops_m && inst.first_props) {
    fputs(" P=\"", f);
    put_members(f, g->gprops_m, g->ngprops_m, inst.first_props);
    fputc('"', f);
  }
  fprintf(f, ">\n    <DeviceInstances>\n");
  if (controller) {
    put_controller(f);
    written.devices++;
  } else {
    fprintf(f, "      <ExtI id=\"host\" type=\"controller\"/>\n");
  }
  /* Devices: as many as the latest call that saw the type had. */
  char *props = op2t_calloc(1, (size_t)max_props_bytes() + 1);
  for (int t = 0; t < g->ntypes; t++) {
    int n = 0;
    for (int i = 0; i < g->ninvocations; i++)
      if (records[i].seen && records[i].last_n[t])
        n = records[i].last_n[t];
    const op2t_type *ty = &g->types[t];
    for (int e = 0; e < n; e++) {
      device_props(props, t, e);
      fprintf(f, "      <DevI id=\"%s_%d\" type=\"%s\" P=\"", ty->set_var, e, ty->name);
      put_members(f, ty->props_m, ty->nprops_m, props);
      fputc('"', f);
      if (ty->nstate_m && inst.first_state && inst.first_state[t] && e < inst.first_n[t]) {
        fputs(" S=\"", f); /* the dats' first values; the protocol's fields start at 0 */
        put_members(f, ty->state_m, ty->nstate_m, inst.first_state[t] + (size_t)e * ty->state_bytes);
        fputc('"', f);
      }
      fputs("/>\n", f);
      written.devices++;
    }
  }
  free(props);
  fprintf(f, "    </DeviceInstances>\n    <EdgeInstances>\n");
  for (int i = 0; i < g->ninvocations; i++) {
    const op2t_invocation *inv = g->invocations[i];
    if (!records[i].seen)
      continue;
    for (int j = 0; j < inv->ninvolved; j++) {
      const op2t_involved *iv = &inv->involved[j];
      const op2t_type *ty = &g->types[iv->type];
      for (int e = 0; e < records[i].last_n[iv->type]; e++) {
        written.edges += 2;
        fprintf(f, "      <EdgeI path=\"%s_%d:%s-host:%s\"/>\n", ty->set_var, e, ty->in_names[iv->begin_pin],
                ty->in_names[iv->begin_pin]);
        fprintf(f, "      <EdgeI path=\"host:%s-%s_%d:%s\"/>\n", ty->out_names[iv->end_pin], ty->set_var, e,
                ty->out_names[iv->end_pin]);
      }
    }
    const op2t_fanouts *fs = &records[i].last;
    for (int k = 0; k < fs->n; k++) {
      const op2t_fanout *fo = &fs->f[k];
      const op2t_type *src = &g->types[fo->type];
      for (int d = 0; d < records[i].last_n[fo->type]; d++)
        for (int x = fo->start[d]; x < fo->start[d + 1]; x++) {
          const op2t_edge *ed = &fo->edges[x];
          const op2t_type *dst = &g->types[ed->type];
          written.edges++;
          fprintf(f, "      <EdgeI path=\"%s_%d:%s-%s_%d:%s\"", dst->set_var, ed->dev, dst->in_names[ed->pin],
                  src->set_var, d, src->out_names[fo->pin]);
          if (ed->has_props)
            fprintf(f, " P=\"{%d}\"", ed->slot);
          fprintf(f, "/>\n");
        }
    }
  }
  fprintf(f, "    </EdgeInstances>\n  </GraphInstance>\n</Graphs>\n");
}

static void report_at_exit(void) {
  if (want_stats)
    print_stats();
  if (op2t_instance_path) {
    FILE *f = fopen(op2t_instance_path, "w");
    if (!f) {
      fprintf(stderr, "op2 tinsel: error: cannot write the instance to '%s'\n", op2t_instance_path);
      _Exit(1);
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const char *alone = getenv("OP2_EMIT_INSTANCE_ALONE");
    write_instance(f, alone && *alone && strcmp(alone, "0") != 0);
    if (fclose(f) != 0) {
      fprintf(stderr, "op2 tinsel: error: cannot write the instance to '%s'\n", op2t_instance_path);
      _Exit(1);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    fprintf(stderr, "op2 tinsel: wrote '%s': %ld devices, %ld edges, %ld calls, in %.1f s\n",
            op2t_instance_path, written.devices, written.edges, inst.nsteps,
            (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    if (op2t_rebinds())
      fprintf(stderr, "op2 tinsel: warning: %u calls bound an invocation to other sets, maps or dats than its "
                      "earlier calls; '%s' holds each invocation's edges of its latest call, so replaying the "
                      "earlier calls on them is not what the run did\n", op2t_rebinds(), op2t_instance_path);
    if (inst.consts_changed)
      fprintf(stderr, "op2 tinsel: warning: op_decl_const changed a value after the first call; the graph "
                      "properties in '%s' hold the values of the first call\n", op2t_instance_path);
    if (nonfinite)
      fprintf(stderr, "op2 tinsel: warning: %ld values in '%s' were infinite or NaN, which POETS XML readers "
                      "cannot parse; written as 0\n", nonfinite, op2t_instance_path);
  }
}
