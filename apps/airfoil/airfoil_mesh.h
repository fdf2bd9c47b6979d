/*
 * airfoil_mesh.h: the one reader of airfoil's mesh files (OP2's
 * new_grid.dat format, written by apps/meshgen), for the airfoil apps and
 * their oracle (airfoil_io.h), op2place (host/place/airfoil_graph.c),
 * meshcheck (tests/meshgen) and the fuzz harness (tests/fuzz/mesh). C and
 * C++; a C file including it defines _POSIX_C_SOURCE (fstat, fileno).
 *
 * The format: a header line "nnode ncell nedge nbedge", then one line per
 * node (x y), per cell (4 nodes, counter-clockwise), per edge (2 nodes, 2
 * cells) and per boundary edge (2 nodes, its cell, its code: 1 wall, 2 far
 * field); indices 0-based, blank lines allowed between rows.
 *
 * What is refused and what is warned about (docs/limits.md, "Meshes"):
 * errors "PATH:LINE: error: ..." for a count outside its range (nnode and
 * ncell 1..AIRFOIL_MESH_MAX, nedge and nbedge 0..AIRFOIL_MESH_MAX), counts
 * the file is too small to hold (checked before anything is allocated), a
 * file that is not a regular file, a row with too few or too many numbers,
 * a token that is not a number or is longer than 63 characters, a NaN or
 * infinite coordinate, an index outside its set, a boundary code other than
 * 1 or 2, and data after the last row. Warnings (to WARN, when not NULL) for
 * degenerate cells: a repeated node, or a signed area that is not positive
 * (collinear, coincident or clockwise nodes); the first
 * AIRFOIL_MESH_MAX_WARNINGS are shown, then how many more there were.
 */
#ifndef AIRFOIL_MESH_H
#define AIRFOIL_MESH_H

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define AIRFOIL_MESH_MAX 100000000   /* per count: keeps every index product inside an int */
#define AIRFOIL_MESH_MAX_WARNINGS 10
#define AIRFOIL_MESH_TOKEN 64         /* a number's characters, and its NUL */

// The mesh as new_grid.dat holds it; 0-based indices.
typedef struct {
  int nnode, ncell, nedge, nbedge;
  int *cell;            // 4 nodes per cell
  int *edge, *ecell;    // 2 nodes, 2 cells per edge
  int *bedge, *becell;  // 2 nodes, 1 cell per boundary edge
  int *bound;           // 1 wall, 2 far field
  double *x;            // 2 coordinates per node
  long ndegenerate;     // cells warned about
} AirfoilMesh;

typedef struct {
  FILE *f;
  const char *path;
  long line;
  int nl;       /* the last row ended with a newline: the next starts a line down */
  char *err;
  size_t errlen;
} AirfoilMeshIn;

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static inline int airfoil_mesh_fail(AirfoilMeshIn *in, long line, const char *fmt, ...) {
  int n = line > 0 ? snprintf(in->err, in->errlen, "%s:%ld: error: ", in->path, line)
                   : snprintf(in->err, in->errlen, "%s: error: ", in->path);
  if (n >= 0 && (size_t)n < in->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->err + n, in->errlen - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static inline void airfoil_mesh_free(AirfoilMesh *m) {
  free(m->cell);
  free(m->edge);
  free(m->ecell);
  free(m->bedge);
  free(m->becell);
  free(m->bound);
  free(m->x);
  m->cell = m->edge = m->ecell = m->bedge = m->becell = m->bound = NULL;
  m->x = NULL;
}

static inline int airfoil_mesh_space(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* The K tokens of the next non-blank line into TOK (row WHAT INDEX of
   COUNT). Leaves in->line at the row's line while the row is checked. */
static inline int airfoil_mesh_row(AirfoilMeshIn *in, char tok[][AIRFOIL_MESH_TOKEN], int k, const char *what,
                                   long index, long count) {
  int c;
  in->line += in->nl;
  in->nl = 0;
  while ((c = getc(in->f)) == '\n' || airfoil_mesh_space(c))
    in->line += c == '\n';
  if (c == EOF) {
    if (ferror(in->f)) return airfoil_mesh_fail(in, 0, "cannot read: %s", strerror(errno));
    return airfoil_mesh_fail(in, in->line, "the file ends before %s %ld (the header says %ld)", what, index, count);
  }
  for (int j = 0; j < k; j++) {
    if (j)
      while (airfoil_mesh_space(c)) c = getc(in->f);
    if (c == '\n' || c == EOF)
      return airfoil_mesh_fail(in, in->line, "%s %ld: expected %d numbers on the line, found %d", what, index, k, j);
    size_t n = 0;
    for (; c != EOF && c != '\n' && !airfoil_mesh_space(c); c = getc(in->f)) {
      if (n + 1 == AIRFOIL_MESH_TOKEN)
        return airfoil_mesh_fail(in, in->line, "%s %ld: number %d is longer than %d characters", what, index,
                                 j + 1, AIRFOIL_MESH_TOKEN - 1);
      tok[j][n++] = (char)(c >= ' ' && c < 127 ? c : '?');  /* '?' for bytes that are never a number */
    }
    tok[j][n] = '\0';
  }
  while (airfoil_mesh_space(c)) c = getc(in->f);
  if (c != '\n' && c != EOF)
    return airfoil_mesh_fail(in, in->line, "%s %ld: more than %d numbers on the line", what, index, k);
  if (c == EOF && ferror(in->f)) return airfoil_mesh_fail(in, 0, "cannot read: %s", strerror(errno));
  in->nl = c == '\n';
  return 0;
}

/* An integer token of row WHAT INDEX in LO..HI; NAME says what it is. */
static inline int airfoil_mesh_int(AirfoilMeshIn *in, const char *tok, const char *what, long index,
                                   const char *name, long lo, long hi, const char *note, int *out) {
  char *end;
  errno = 0;
  long v = strtol(tok, &end, 10);
  if (end == tok || *end)
    return airfoil_mesh_fail(in, in->line, "%s %ld: %s '%s' is not an integer", what, index, name, tok);
  if (errno == ERANGE || v < lo || v > hi)
    return airfoil_mesh_fail(in, in->line, "%s %ld: %s %s is outside %ld..%ld%s", what, index, name, tok, lo, hi,
                             note);
  *out = (int)v;
  return 0;
}

static inline void *airfoil_mesh_alloc(AirfoilMeshIn *in, size_t n, size_t size, int *rc) {
  void *p = calloc(n ? n : 1, size);
  if (!p && !*rc) *rc = airfoil_mesh_fail(in, 1, "out of memory for %zu values of %zu bytes", n, size);
  return p;
}

/* Cell C (on the current line): warn if it repeats a node or its signed
   area is not positive. */
static inline void airfoil_mesh_check_cell(AirfoilMeshIn *in, AirfoilMesh *m, long c, FILE *warn) {
  const int *v = &m->cell[4 * c];
  const char *why = NULL;
  double area = 0;
  for (int k = 0; k < 4; k++)
    for (int j = k + 1; j < 4; j++)
      if (v[k] == v[j]) why = "repeats a node";
  if (!why) {
    for (int k = 0; k < 4; k++) {
      const double *a = &m->x[2 * v[k]], *b = &m->x[2 * v[(k + 1) % 4]];
      area += a[0] * b[1] - b[0] * a[1];
    }
    area /= 2;
    if (area == 0) why = "has zero area";
    else if (!(area > 0)) why = "is clockwise or folded (negative area)";
  }
  if (!why) return;
  if (++m->ndegenerate <= AIRFOIL_MESH_MAX_WARNINGS && warn)
    fprintf(warn, "%s:%ld: warning: cell %ld (nodes %d %d %d %d) %s; airfoil's results on it are not meaningful\n",
            in->path, in->line, c, v[0], v[1], v[2], v[3], why);
}

/* Read the mesh from F (named PATH in messages). 0, or -1 with the reason
   in ERR and nothing allocated. */
static inline int airfoil_mesh_read_file(FILE *f, const char *path, AirfoilMesh *m, FILE *warn, char *err,
                                         size_t errlen) {
  AirfoilMeshIn in = {f, path, 1, 0, err, errlen};
  char tok[4][AIRFOIL_MESH_TOKEN];
  memset(m, 0, sizeof *m);
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode))
    return airfoil_mesh_fail(&in, 0, "is a directory, not a mesh file");
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
    return airfoil_mesh_fail(&in, 0, "not a regular file: a mesh is read from a file whose size bounds its counts");
  static const char *const hname[4] = {"nnode", "ncell", "nedge", "nbedge"};
  int h[4];
  if (airfoil_mesh_row(&in, tok, 4, "header", 0, 1)) {
    snprintf(err, errlen, "%s:%ld: error: expected the header 'nnode ncell nedge nbedge' (4 integers)", path,
             in.line);
    return -1;
  }
  for (int k = 0; k < 4; k++)
    if (airfoil_mesh_int(&in, tok[k], "header", 0, hname[k], k < 2, AIRFOIL_MESH_MAX, "", &h[k])) {
      snprintf(err, errlen, "%s:%ld: error: header: %s is %s: expected an integer in %d..%d", path, in.line,
               hname[k], tok[k], k < 2, AIRFOIL_MESH_MAX);
      return -1;
    }
  /* The shortest rows: "x y" and "a b c d", each with its newline. */
  uint64_t need = 8 + 4 * (uint64_t)h[0] + 8 * ((uint64_t)h[1] + (uint64_t)h[2] + (uint64_t)h[3]) - 1;
  if ((uint64_t)st.st_size < need)
    return airfoil_mesh_fail(&in, in.line,
                             "the header's %d nodes, %d cells, %d edges and %d boundary edges need at least %llu "
                             "bytes, but the file has %lld",
                             h[0], h[1], h[2], h[3], (unsigned long long)need, (long long)st.st_size);
  m->nnode = h[0], m->ncell = h[1], m->nedge = h[2], m->nbedge = h[3];
  int rc = 0;
  m->x = (double *)airfoil_mesh_alloc(&in, 2 * (size_t)m->nnode, sizeof(double), &rc);
  m->cell = (int *)airfoil_mesh_alloc(&in, 4 * (size_t)m->ncell, sizeof(int), &rc);
  m->edge = (int *)airfoil_mesh_alloc(&in, 2 * (size_t)m->nedge, sizeof(int), &rc);
  m->ecell = (int *)airfoil_mesh_alloc(&in, 2 * (size_t)m->nedge, sizeof(int), &rc);
  m->bedge = (int *)airfoil_mesh_alloc(&in, 2 * (size_t)m->nbedge, sizeof(int), &rc);
  m->becell = (int *)airfoil_mesh_alloc(&in, (size_t)m->nbedge, sizeof(int), &rc);
  m->bound = (int *)airfoil_mesh_alloc(&in, (size_t)m->nbedge, sizeof(int), &rc);
  for (long n = 0; !rc && n < m->nnode; n++) {
    rc = airfoil_mesh_row(&in, tok, 2, "node", n, m->nnode);
    for (int k = 0; !rc && k < 2; k++) {
      char *end;
      double v = strtod(tok[k], &end);
      if (end == tok[k] || *end)
        rc = airfoil_mesh_fail(&in, in.line, "node %ld: coordinate %c '%s' is not a number", n, "xy"[k], tok[k]);
      else if (!isfinite(v))
        rc = airfoil_mesh_fail(&in, in.line, "node %ld: coordinate %c is %s: coordinates must be finite", n,
                               "xy"[k], tok[k]);
      m->x[2 * n + k] = v;
    }
  }
  char nodes[48], cells[48];
  snprintf(nodes, sizeof nodes, " (nnode %d)", m->nnode);
  snprintf(cells, sizeof cells, " (ncell %d)", m->ncell);
  for (long n = 0; !rc && n < m->ncell; n++) {
    rc = airfoil_mesh_row(&in, tok, 4, "cell", n, m->ncell);
    for (int k = 0; !rc && k < 4; k++)
      rc = airfoil_mesh_int(&in, tok[k], "cell", n, "node", 0, m->nnode - 1, nodes, &m->cell[4 * n + k]);
    if (!rc) airfoil_mesh_check_cell(&in, m, n, warn);
  }
  for (long n = 0; !rc && n < m->nedge; n++) {
    rc = airfoil_mesh_row(&in, tok, 4, "edge", n, m->nedge);
    for (int k = 0; !rc && k < 2; k++)
      rc = airfoil_mesh_int(&in, tok[k], "edge", n, "node", 0, m->nnode - 1, nodes, &m->edge[2 * n + k]);
    for (int k = 0; !rc && k < 2; k++)
      rc = airfoil_mesh_int(&in, tok[2 + k], "edge", n, "cell", 0, m->ncell - 1, cells, &m->ecell[2 * n + k]);
  }
  for (long n = 0; !rc && n < m->nbedge; n++) {
    rc = airfoil_mesh_row(&in, tok, 4, "boundary edge", n, m->nbedge);
    for (int k = 0; !rc && k < 2; k++)
      rc = airfoil_mesh_int(&in, tok[k], "boundary edge", n, "node", 0, m->nnode - 1, nodes, &m->bedge[2 * n + k]);
    if (!rc)
      rc = airfoil_mesh_int(&in, tok[2], "boundary edge", n, "cell", 0, m->ncell - 1, cells, &m->becell[n]);
    if (!rc)
      rc = airfoil_mesh_int(&in, tok[3], "boundary edge", n, "code", 1, 2, " (1 wall, 2 far field)",
                            &m->bound[n]);
  }
  if (!rc) {
    int c;
    long line = in.line + in.nl;
    while ((c = getc(f)) == '\n' || airfoil_mesh_space(c))
      line += c == '\n';
    if (c != EOF)
      rc = airfoil_mesh_fail(&in, line, "data after the last boundary edge (the header says %d nodes, %d cells, "
                             "%d edges, %d boundary edges)", m->nnode, m->ncell, m->nedge, m->nbedge);
    else if (ferror(f))
      rc = airfoil_mesh_fail(&in, 0, "cannot read: %s", strerror(errno));
  }
  if (rc) {
    airfoil_mesh_free(m);
    return -1;
  }
  if (warn && m->ndegenerate > AIRFOIL_MESH_MAX_WARNINGS)
    fprintf(warn, "%s: warning: %ld degenerate cells in all (the first %d shown)\n", path, m->ndegenerate,
            AIRFOIL_MESH_MAX_WARNINGS);
  return 0;
}

static inline int airfoil_mesh_read(const char *path, AirfoilMesh *m, FILE *warn, char *err, size_t errlen) {
  memset(m, 0, sizeof *m);
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, errlen, "%s: error: cannot open the mesh: %s", path, strerror(errno));
    return -1;
  }
  int rc = airfoil_mesh_read_file(f, path, m, warn, err, errlen);
  fclose(f);
  return rc;
}

#endif
