/* op2place: place and route the airfoil graph of a mesh on a configuration,
 * and say how long it took and how good it is.
 *
 *   op2place --config NAME --mesh FILE [--stats] [--images] [--seed N]
 *            [--round-robin] [--one-group | --op2-groups] [--state-bytes N]
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "place.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void usage(const char *msg, const char *arg) {
  if (msg) fprintf(stderr, "op2place: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
  fprintf(stderr, "usage: op2place --config NAME --mesh FILE [--stats] [--images] [--seed N]\n"
                  "                [--round-robin] [--one-group | --op2-groups] [--state-bytes N]\n");
  exit(2);
}

static unsigned long number(const char *opt, const char *s) {
  char *end;
  errno = 0;
  unsigned long v = s ? strtoul(s, &end, 10) : 0;
  if (!s || errno || end == s || *end || v > 0xffffffffu) usage("expected a number after", opt);
  return v;
}

static void print_cut(const char *what, const PlaceCutStats *s) {
  printf("%-12s edges %llu: same thread %llu, same mailbox %llu, same board %llu, other boards %llu; "
         "cut %llu (%.1f%%), board hops %llu; threads used %u, at most %u devices per thread\n",
         what, (unsigned long long)s->edges, (unsigned long long)s->same_thread,
         (unsigned long long)s->same_mbox, (unsigned long long)s->same_board,
         (unsigned long long)s->other_board, (unsigned long long)s->cut,
         s->edges ? 100.0 * (double)s->cut / (double)s->edges : 0.0, (unsigned long long)s->hops,
         s->threads_used, s->max_devices_per_thread);
}

/* Each type's devices per thread of its group: the busiest thread bounds a
 * loop over the type, so a spread of more than one is work left idle. */
static void print_balance(const PlaceGraph *g, const PlaceMachine *m, const PlacePlacement *p) {
  printf("balance (devices per thread of the type's group):");
  for (int t = 0; t < place_num_types(g); t++) {
    PlaceTypeBalance b;
    place_type_balance(g, m, p, t, &b);
    printf("%s %s %u-%u (mean %.2f over %u threads)", t ? ";" : "", b.name, b.min, b.max,
           b.threads ? (double)b.devices / b.threads : 0.0, b.threads);
  }
  putchar('\n');
}

int main(int argc, char **argv) {
  const char *config = NULL, *mesh = NULL;
  int stats = 0, images = 0;
  PlaceAirfoilGroups groups = PLACE_AIRFOIL_GROUP_PER_SET;
  PlaceOptions opt = {1, 0, 0};
  uint32_t state_bytes = 96;
  for (int a = 1; a < argc; a++) {
    const char *o = argv[a], *v = a + 1 < argc ? argv[a + 1] : NULL;
    if (!strcmp(o, "--config") && v) config = v, a++;
    else if (!strcmp(o, "--mesh") && v) mesh = v, a++;
    else if (!strcmp(o, "--seed")) opt.seed = (uint32_t)number(o, v), a++;
    else if (!strcmp(o, "--state-bytes")) state_bytes = (uint32_t)number(o, v), a++;
    else if (!strcmp(o, "--stats")) stats = 1;
    else if (!strcmp(o, "--images")) images = 1;
    else if (!strcmp(o, "--round-robin")) opt.round_robin = 1;
    else if (!strcmp(o, "--one-group")) groups = PLACE_AIRFOIL_ONE_GROUP;
    else if (!strcmp(o, "--op2-groups")) groups = PLACE_AIRFOIL_OP2_GROUPS; /* as the OP2 runtime places airfoil sp */
    else if (!strcmp(o, "--help")) usage(NULL, NULL);
    else usage("unknown or incomplete option", o);
  }
  if (!config || !mesh) usage("--config and --mesh are required", NULL);

  char err[1024];
  PlaceMachine m;
  if (place_machine_load(&m, config, err, sizeof err)) {
    fprintf(stderr, "op2place: %s\n", err);
    return 1;
  }
  double t0 = now();
  PlaceGraph *g = place_airfoil_graph(mesh, groups, state_bytes, stderr, err, sizeof err);
  if (!g) {
    fprintf(stderr, "op2place: %s\n", err);
    return 1;
  }
  double t1 = now();
  PlacePlacement p;
  PlaceRoutes r = {0};
  int rc = place_run(g, &m, &opt, &p);
  double t2 = now(), t3 = t2, t4 = t2;
  uint64_t image_bytes = 0, image_max = 0;
  if (!rc) rc = place_route(g, &m, &p, &r);
  t3 = now();
  for (uint32_t t = 0; images && !rc && t < p.nthreads; t++) {
    uint8_t *img;
    uint32_t n;
    rc = place_image(g, &m, &p, &r, t, NULL, 0, 0, NULL, NULL, &img, &n);
    image_bytes += n;
    if (n > image_max) image_max = n;
    free(img);
  }
  t4 = now();
  if (rc) {
    fprintf(stderr, "op2place: %s\n", place_error(g));
    place_routes_free(&r);
    place_placement_free(&p);
    place_graph_free(g);
    return 1;
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("op2place: %s on '%s' (%d boards, %d threads, %d core pairs): %u devices, %s placement, seed %u\n",
         mesh, m.name, m.nboards, m.nthreads, m.nunits, place_num_devices(g),
         opt.round_robin ? "round-robin" : "METIS", opt.seed);
  printf("time: read+build %.2f s, place %.2f s, route %.2f s%s", t1 - t0, t2 - t1, t3 - t2,
         images ? ", images " : "");
  if (images) printf("%.2f s", t4 - t3);
  printf("; peak memory %ld MB\n", ru.ru_maxrss / 1024);
  printf("routes: %llu local sends, %llu mailbox multicasts, %llu key sends, %llu router records, "
         "%llu table bytes\n", (unsigned long long)r.local_sends,
         (unsigned long long)r.mailbox_sends, (unsigned long long)r.key_sends,
         (unsigned long long)r.records, (unsigned long long)r.table_bytes);
  if (images)
    printf("images: %llu bytes in all, largest %llu bytes\n", (unsigned long long)image_bytes,
           (unsigned long long)image_max);
  if (stats) {
    PlaceCutStats s;
    place_cut_stats(g, &m, &p, &s);
    print_cut(opt.round_robin ? "round-robin" : "METIS", &s);
    print_balance(g, &m, &p);
  }
  place_routes_free(&r);
  place_placement_free(&p);
  place_graph_free(g);
  return 0;
}
