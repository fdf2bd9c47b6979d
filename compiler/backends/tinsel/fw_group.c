// fw_group.c: which device types can share a core pair. A core pair's
// instruction memory holds the softswitch and the handlers of the types
// placed on it, so the placer needs groups of types whose image fits.
// Greedy first fit, largest type first: a type joins the first group whose
// image with it still fits (built and measured, since the softswitch,
// libraries and shared kernels are counted once), else starts a group.
// That fixes how many groups; then the types are spread over that many,
// largest first into the group with the fewest types (balance, see below).
// The groups go to the manifest as "group K IMAGE".
#include "fw_build.h"

#include <string.h>

#include "tinsel_config.h"

static int by_size_desc(const void *a, const void *b) {
  const FwImage *x = *(const FwImage *const *)a, *y = *(const FwImage *const *)b;
  return (y->text_bytes > x->text_bytes) - (y->text_bytes < x->text_bytes);
}

// An image holding the types of `with` plus type t, named after them.
static FwImage union_image(const GGraphType *g, const FwImage *with, int t) {
  FwImage u = {0};
  u.has_type = xcalloc((size_t)g->ntypes, sizeof(bool));
  u.name = "img";
  for (int i = 0; i < g->ntypes; i++) {
    u.has_type[i] = (with && with->has_type[i]) || i == t;
    if (u.has_type[i])
      u.name = format("%s_%s", u.name, g->types[i]->id);
  }
  return u;
}

// Images built so far, so a union first fit measured is not built (and
// listed in the manifest) again when the types are spread.
typedef struct {
  FwImage *imgs;
  int n;
} Built;

// The image of `with` plus type t, built and measured once; 0, or 1 on a
// build error.
static int build_union(FwBuild *b, const GGraphType *g, Built *built, const FwImage *with, int t, FwImage *out) {
  *out = union_image(g, with, t);
  for (int i = 0; i < built->n; i++)
    if (!strcmp(built->imgs[i].name, out->name)) {
      *out = built->imgs[i];
      return 0;
    }
  if (!fw_write_image(b->dir, g, out) || fw_build_one(b, g, out))
    return 1;
  VEC_PUSH(built->imgs, built->n, *out);
  return 0;
}

// The number of device types in an image.
static int ntypes_in(const GGraphType *g, const FwImage *img) {
  int n = 0;
  for (int i = 0; img->has_type && i < g->ntypes; i++)
    n += img->has_type[i];
  return n;
}

// Spreads the types over k groups, largest first, each into the group
// with the fewest types so far (an empty one first; of equals, the smallest
// image) among those it fits.
// Returns 1 when every type found a group, 0 when one fits none, -1 on a
// build error.
static int spread(FwBuild *b, const GGraphType *g, Built *built, const FwImage **singles, int n, FwImage *groups,
                  int k) {
  bool *tried = xcalloc((size_t)k, sizeof(bool));
  for (int i = 0; i < n; i++) {
    bool placed = false;
    memset(tried, 0, sizeof(bool) * (size_t)k);
    for (int attempt = 0; attempt < k && !placed; attempt++) {
      int best = -1; // the group with the fewest types, then the smallest image, not tried yet
      for (int j = 0; j < k; j++) {
        if (tried[j])
          continue;
        int d = best < 0 ? -1 : ntypes_in(g, &groups[j]) - ntypes_in(g, &groups[best]);
        if (d < 0 || (d == 0 && groups[j].text_bytes < groups[best].text_bytes))
          best = j;
      }
      tried[best] = true;
      if (!groups[best].has_type) {
        groups[best] = *singles[i];
        placed = true;
        continue;
      }
      FwImage u;
      if (build_union(b, g, built, &groups[best], singles[i]->type, &u))
        return -1;
      if (u.text_bytes <= fw_budget(b)) {
        groups[best] = u;
        placed = true;
      }
    }
    if (!placed)
      return 0;
  }
  return 1;
}

int fw_group_types(FwBuild *b, const GGraphType *g, const FwImage *imgs, int nimgs) {
  const FwImage **singles = xcalloc((size_t)nimgs, sizeof(FwImage *));
  int n = 0;
  for (int i = 0; i < nimgs; i++)
    if (imgs[i].single)
      singles[n++] = &imgs[i];
  qsort(singles, (size_t)n, sizeof(*singles), by_size_desc);
  FwImage *groups = xcalloc((size_t)n + 1, sizeof(FwImage));
  int ngroups = 0;
  Built built = {0};
  for (int i = 0; i < n; i++) {
    const FwImage *s = singles[i];
    bool placed = false;
    for (int k = 0; k < ngroups && !placed; k++) {
      FwImage u;
      if (build_union(b, g, &built, &groups[k], s->type, &u))
        return 1;
      if (u.text_bytes <= fw_budget(b)) {
        groups[k] = u;
        placed = true;
      }
    }
    if (!placed)
      groups[ngroups++] = *s;
  }
  // As many groups as first fit needs, but the types spread over them: the
  // placer gives every group the same share of core pairs (a mailbox's two
  // pairs go to different groups), so packing types into the first group
  // would crowd its threads and idle the others. Set sizes are known only
  // at run time; the number of types stands in for the devices (airfoil
  // sp, 1800 cells: first fit's {edges, cells} and {nodes, bedges} took
  // 2.00 M cycles per iteration, {nodes, cells} and {edges, bedges} 1.70 M).
  if (ngroups > 1) {
    FwImage *spread_groups = xcalloc((size_t)ngroups, sizeof(FwImage));
    int r = spread(b, g, &built, singles, n, spread_groups, ngroups);
    if (r < 0)
      return 1;
    if (r > 0)
      groups = spread_groups;
  }
  b->groups = groups;
  b->ngroups = ngroups;
  return fw_place_globals(b, g);
}

// Every group gets an equal slice of the POLite DRAM globals (below the
// router tables at POLiteProgRouterBase): group k's .rodata, .data and .bss
// start at TinselDRAMBase + k * slice. Several groups share a DRAM (each
// DRAM serves many core pairs), and each group's ELF loads its globals once
// per DRAM, so they must not overlap.
int fw_place_globals(FwBuild *b, const GGraphType *g) {
  unsigned long slice = b->ngroups ? (TinselPOLiteDRAMGlobalsLength / (unsigned long)b->ngroups) & ~7ul : 0;
  for (int k = 0; k < b->ngroups; k++) {
    FwImage *img = &b->groups[k];
    img->globals_at = TinselDRAMBase + (unsigned long)k * slice;
    if (k > 0 && fw_relink(b, g, img))
      return 1;
    if ((unsigned long)img->globals_bytes > slice) {
      error_plain("image %s needs %ld bytes of DRAM globals (.rodata, .data, .bss), more than its slice of "
                  "%lu bytes (TinselPOLiteDRAMGlobalsLength %lu shared by %d code groups)",
                  img->name, img->globals_bytes, slice, (unsigned long)TinselPOLiteDRAMGlobalsLength, b->ngroups);
      return 1;
    }
    fprintf(b->manifest, "group %d %s 0x%lx\n", k, img->name, img->globals_at);
  }
  return 0;
}
