/*
 * ssrun.h: run softswitch thread images (built by libop2_place's
 * place_image) on the host or on the cycle model, for the apps that are
 * not OP2 programs: apps/tree and tg.h's POETS back end (tg_poets.c).
 *
 *   ssrun_softswitch  the real softswitch (firmware/softswitch/softswitch.c,
 *                     compiled into this file) with one simulated mailbox per
 *                     thread; message deliveries and thread steps are picked
 *                     at random (seeded); when nothing is in flight and every
 *                     thread waits, the idle barrier runs (SS_FLAG_EXIT_ON_IDLE
 *                     images end there). The device types are the program's
 *                     ss_dev_types.
 *   ssrun_preload     the images (and a box's routing tables) as a tsim
 *                     --preload file, each at its thread's tinselHeapBase;
 *   ssrun_tsim        tsim --all-threads on that file with the program's
 *                     firmware; every output line goes to the caller.
 *   ssrun_tsim_hostlink  the same images loaded as on a box: through tsim's
 *                     boot loader over the host link (ssrun_hl.c, libhostlink).
 */
#ifndef SSRUN_H
#define SSRUN_H

#include <stddef.h>
#include <stdint.h>

#include "place.h"

typedef struct {
  const PlaceMachine *m;
  const PlaceRoutes *r;
  uint8_t *const *image;   /* [m->nthreads]: every thread has one */
  const uint32_t *bytes;
} ssrun_images;

/* A graph placed and laid out: the caller loads the machine (m) and builds
 * the graph (g); ssrun_place places it with METIS seed SEED, routes it and
 * builds every thread's image (SS_FLAG_EXIT_ON_IDLE: every thread takes part
 * in the idle barrier; FILL fills the devices' properties): 0, or -1 with
 * the reason in ERR. */
typedef struct {
  PlaceMachine m;
  PlaceGraph *g;
  PlacePlacement p;
  PlaceRoutes r;
  uint8_t **image;   /* [m.nthreads] */
  uint32_t *bytes;
  uint32_t max_devices, max_bytes; /* per thread */
} ssrun_placed;
int ssrun_place(ssrun_placed *pl, uint32_t seed, PlaceFillFn fill, void *ctx, char *err, size_t errlen);
void ssrun_placed_free(ssrun_placed *pl);
static inline ssrun_images ssrun_images_of(const ssrun_placed *pl) {
  return (ssrun_images){&pl->m, &pl->r, pl->image, pl->bytes};
}

/* 0, or 1 with the reason on stderr; prints one line of counts. */
int ssrun_softswitch(const ssrun_images *im, uint32_t seed);
/* Where thread THREAD's image goes: its tinselHeapBase in the machine's layout. */
uint32_t ssrun_heap_base(const PlaceMachine *m, uint32_t thread);
/* 0, or -1 with the reason in ERR. */
int ssrun_preload(const ssrun_images *im, const char *path, char *err, size_t errlen);
/* Runs TSIM --config CONFIG [--imem IMEM] --elf FW --all-threads --preload
 * PRELOAD [--delay-seed DELAY_SEED] (IMEM NULL: tsim's default); LINE gets
 * every line it prints (stdout and stderr), and the run's end and totals
 * are echoed. tsim's exit status, or -1 when it could not be started. */
typedef void (*ssrun_line_fn)(void *ctx, const char *line);
int ssrun_tsim(const char *tsim, const char *config, const char *imem, const char *fw, const char *preload,
               const char *delay_seed, ssrun_line_fn line, void *ctx);
/* The same run loaded as on a POETS box (taskgraph/ssrun_hl.c, libhostlink):
 * tsim --hostlink --debuglink with its boot loader; FW and every image (and
 * a box's routing tables) go through the boot loader, every thread is
 * started, and LINE gets each line the threads print until EXPECT lines
 * that start with DONE have come. 0, or -1 with the reason in ERR. */
int ssrun_tsim_hostlink(const char *tsim, const char *config, const char *fw, const ssrun_images *im,
                        const char *delay_seed, const char *done, uint32_t expect, ssrun_line_fn line, void *ctx,
                        char *err, size_t errlen);

#endif
