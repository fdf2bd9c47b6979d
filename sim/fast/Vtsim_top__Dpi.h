/* sim/fast/Vtsim_top__Dpi.h: the DPI prototypes of rtl_models/tsim_dpi.sv,
   mbox_dpi.sv and progrouter.sv for the fast engine (sim/fast/), which has
   no Verilator model. The shared C files (tsim_dpi.c, tsim_mbox.c,
   tsim_threads.c, tsim_progrouter.c, ...) include "Vtsim_top__Dpi.h" for
   these prototypes; the fast engine's build puts sim/fast first on the
   include path, so they compile unchanged against this header, and the
   engine calls the same functions the models call through DPI. Types as
   Verilator 5.006 maps them: int unsigned -> unsigned, longint unsigned ->
   unsigned long long, bit -> svBit, outputs -> pointers. */
#ifndef FAST_VTSIM_TOP_DPI_H
#define FAST_VTSIM_TOP_DPI_H

#include <stdint.h>  /* svdpi.h brings it; tsim_threads.c relies on it */

#ifdef __cplusplus
extern "C" {
#endif

typedef unsigned char svBit;

/* tsim_dpi.sv */
unsigned long long tsim_cycle(void);
unsigned tsim_entry(unsigned core);
unsigned tsim_start_mask(unsigned core);
svBit tsim_profile_full(void);
unsigned tsim_initial_sp(unsigned core, unsigned thread);
unsigned tsim_imem_word(unsigned index);
unsigned tsim_imem_pair_loaded(unsigned pair);
unsigned tsim_imem_pair_word(unsigned pair, unsigned index);
unsigned tsim_imem_words(void);
unsigned tsim_pr_counter(unsigned board, unsigned which);
int tsim_mem(unsigned core, unsigned thread, unsigned pc, unsigned instr, unsigned addr, unsigned wdata,
             unsigned *rdata, unsigned *outcome);
unsigned tsim_dc_flush(unsigned core, unsigned thread, unsigned value);
unsigned tsim_fp(unsigned instr, unsigned a, unsigned b, unsigned c);
void tsim_halt(unsigned core, unsigned thread, unsigned pc, unsigned instr, int reason);
void tsim_emit(unsigned core, unsigned thread, unsigned value);
void tsim_uart_put(unsigned core, unsigned thread, unsigned value);
void tsim_core_stats(unsigned core, unsigned long long retired, unsigned long long idle, unsigned long long susp_mem,
                     unsigned long long susp_fpu, unsigned long long susp_mb, unsigned long long retry);
void tsim_thread_state(unsigned core, unsigned thread, svBit alive, svBit ready, unsigned pc);
void tsim_cache_stats(unsigned tile, unsigned long long hits, unsigned long long misses,
                      unsigned long long writebacks);

/* mbox_dpi.sv */
unsigned tsim_mbox_capture(unsigned tile, unsigned thread, unsigned slot, unsigned flits, unsigned mask_hi,
                           unsigned mask_lo);
unsigned long long tsim_mbox_mask(unsigned msg);
void tsim_mbox_deliver(unsigned msg, unsigned tile, unsigned slot);
svBit tsim_mbox_delay_on(void);
unsigned tsim_mbox_delay(unsigned tile);
void tsim_mbox_error(unsigned tile, unsigned thread, int code, unsigned value);
void tsim_mbox_stats(unsigned tile, unsigned long long sent, unsigned long long received,
                     unsigned long long deliveries, unsigned queue_max, unsigned pool_max,
                     unsigned long long stalled, int unfreed, unsigned in_idle, unsigned asleep);
void tsim_mbox_thread_wait(unsigned tile, unsigned thread, svBit can_send, svBit can_recv, svBit idle);
void tsim_noc_stats(unsigned board_xy, unsigned router, unsigned long long hops, unsigned long long blocked,
                    unsigned buffered_max);
unsigned tsim_uart_get(unsigned tile, unsigned thread);
unsigned tsim_mbox_pool_config(unsigned tile);

/* progrouter.sv */
int tsim_pr_lookup(unsigned board_xy, unsigned f, unsigned msg, unsigned *count);
void tsim_pr_out(unsigned board_xy, unsigned f, unsigned k, unsigned *port, unsigned *dest, unsigned *msg,
                 unsigned *at);
void tsim_pr_sent(unsigned board_xy);

#ifdef __cplusplus
}
#endif
#endif
