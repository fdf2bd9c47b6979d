/* tsim_dpi.c: the C side of the models (rtl_models/tsim_dpi.sv) for one
   configuration (compiled with its tinsel_config.h): the memory map over
   the sparse store, program loading, halts and statistics. */
#include "tsim_run.h"

#include "Vtsim_top__Dpi.h"
#include "elf32.h"
#include "tinsel_config.h"
#include "tsim_boards.h"
#include "tsim_dcache.h"
#include "tsim_debuglink.h"
#include "tsim_decode.h"
#include "tsim_fpu.h"
#include "tsim_hostlink.h"
#include "tsim_links.h"
#include "tsim_mbox.h"
#include "tsim_mem.h"
#include "tsim_preload.h"
#include "tsim_progrouter.h"
#include "tsim_threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile int tsim_stop;

enum { HALT_PROFILE = 1, HALT_ILLEGAL = 2, HALT_PC = 3, HALT_CSR = 4 };
/* csrrw zero, KillThread (0x80e), zero: at address 0 of programs without tohost. */
enum { KILL_STUB = 0x80e01073u };

/* Memory spaces: one per DRAM slice (DRAM and its SRAMs) of every board,
   then one scratchpad per tile (run-wide numbers, tsim_boards.h). */
enum { SPACE_SCRATCHPAD = TSIM_DRAMS };
/* The instruction memory the model allocates (tsim_dpi.sv LogImemModel). */
enum { IMEM_MODEL_WORDS = 1u << (TinselEnlargedLogInstrsPerCore > TinselLogInstrsPerCore
                                   ? TinselEnlargedLogInstrsPerCore : TinselLogInstrsPerCore) };

static struct {
  TsimArgs args;
  uint32_t imem[IMEM_MODEL_WORDS];
  uint32_t imem_words;  /* this run's instruction memory per core pair (--imem) */
  uint32_t entry, tohost, tohost_value;
  int no_tohost;  /* the program defines no tohost (sim/README.md "Runs without tohost") */
  struct { unsigned long long retired, idle, susp_mem, susp_fpu, susp_mb, retry; } core[TSIM_CORES];
  struct { unsigned long long hits, misses, writebacks; } cache[TSIM_TILES];
} run;

/* ---------------------------------------------------------------- memory map */

/* Where a thread's address lives: its space and the address within it, or
   -1 outside every region. The interleaved upper region maps onto the plain
   one with each thread partition spread over cache lines (tinsel.md §1.7). */
static int locate(unsigned core, uint32_t addr, unsigned *space, uint32_t *phys) {
  if (addr >> TinselLogOffChipRAMBaseAddr == 0) {
    *space = SPACE_SCRATCHPAD + core / TinselCoresPerMailbox;
    *phys = addr & (TinselBytesPerMailbox - 1);  /* the alias and the scratchpad */
    return 0;
  }
  *space = core >> TinselLogCoresPerDRAM;
  if ((uint64_t)addr < (uint64_t)TinselMemDRAMUpperBase + TinselMemDRAMUpperSize) {
    *phys = addr;
    return 0;
  }
  if (addr >= TinselMemDRAMInterleavedBase) {
    enum { PART_BITS = 30 - TinselLogBytesPerDRAMPartition };
    uint32_t off = addr - TinselMemDRAMInterleavedBase;
    uint32_t part = off >> TinselLogBytesPerDRAMPartition;
    uint32_t within = off & ((1u << TinselLogBytesPerDRAMPartition) - 1);
    uint32_t line = within >> TinselLogBytesPerLine, byte = within & (TinselBytesPerLine - 1);
    *phys = TinselMemDRAMUpperBase + ((line << (TinselLogBytesPerLine + PART_BITS)) | (part << TinselLogBytesPerLine) | byte);
    return 0;
  }
  return -1;
}

static void halt_message(unsigned core, unsigned thread, uint32_t pc, uint32_t instr, const char *what) {
  fprintf(stderr, "tsim: board %u, core %u, thread %u, pc 0x%08x: instruction 0x%08x (%s): %s\n",
          core / TinselCoresPerBoard, core % TinselCoresPerBoard, thread, pc, instr, tsim_mnemonic(instr), what);
  tsim_stop = TSIM_STOP_HALT;
}

/* --profile full lets a misaligned access through; one that spans two cache
   lines goes a byte at a time (each byte's line may map elsewhere: the
   interleaved region). The outcome is the slowest byte's. */
static unsigned cached_bytes(unsigned core, unsigned thread, uint32_t addr, unsigned size, int store, uint32_t *v) {
  unsigned outcome = TSIM_DC_HIT;
  uint32_t loaded = 0;
  for (unsigned i = 0; i < size; i++) {
    unsigned space;
    uint32_t phys, b = store ? (*v >> (8 * i)) & 0xff : 0;
    locate(core, addr + i, &space, &phys);  /* tsim_mem checked the first and last bytes */
    TsimDcacheLine line = {space, phys - (addr + i) % TinselBytesPerLine};
    unsigned o = tsim_dcache_access(core, thread, addr + i, line, 1, store, &b);
    if ((o & 7) > (outcome & 7)) outcome = (outcome & TSIM_DC_WRITEBACK) | (o & 7);
    outcome |= o & TSIM_DC_WRITEBACK;
    loaded |= b << (8 * i);
  }
  if (!store) *v = loaded;
  return outcome;
}

int tsim_mem(unsigned core, unsigned thread, unsigned pc, unsigned instr, unsigned addr, unsigned wdata,
             unsigned *rdata, unsigned *outcome) {
  unsigned f3 = (instr >> 12) & 7, size = 1u << (f3 & 3), store = (instr >> 5) & 1;
  unsigned space;
  uint32_t phys;
  char what[96];
  if (addr & (size - 1) && !run.args.profile_full) {
    snprintf(what, sizeof what, "misaligned address 0x%08x: not in profile tinsel", addr);
    halt_message(core, thread, pc, instr, what);
    return 1;
  }
  unsigned last_space;
  uint32_t last_phys;  /* a misaligned access (--profile full) must end in a region too */
  if (locate(core, addr, &space, &phys) || locate(core, addr + size - 1, &last_space, &last_phys)) {
    snprintf(what, sizeof what, "address 0x%08x is in no memory region", addr);
    halt_message(core, thread, pc, instr, what);
    return 1;
  }
  uint32_t v = store ? (size == 4 ? wdata : wdata & ((1u << (8 * size)) - 1)) : 0;
  if (addr >> TinselLogOffChipRAMBaseAddr == 0) {  /* the scratchpad: not cached */
    *outcome = TSIM_DC_SCRATCHPAD;
    if (store) tsim_mem_write(space, phys, size, v);
    else v = tsim_mem_read(space, phys, size);
  } else if (addr % TinselBytesPerLine + size <= TinselBytesPerLine) {
    TsimDcacheLine line = {space, phys - addr % TinselBytesPerLine};
    *outcome = tsim_dcache_access(core, thread, addr, line, size, (int)store, &v);
  } else {
    *outcome = cached_bytes(core, thread, addr, size, (int)store, &v);
  }
  if (store) {
    if (addr == run.tohost && !tsim_stop) {
      run.tohost_value = v;
      tsim_stop = TSIM_STOP_TOHOST;
    }
    *rdata = 0;
  } else {
    if (!(f3 & 4) && size < 4 && (v >> (8 * size - 1) & 1)) v |= ~0u << (8 * size);  /* lb, lh */
    *rdata = v;
  }
  return 0;
}

unsigned tsim_dc_flush(unsigned core, unsigned thread, unsigned value) {
  return tsim_dcache_flush(core, thread, value);
}

/* ---------------------------------------------------------------- run settings */

/* CORE's threads start at the program's entry, or where --preload says. */
unsigned tsim_entry(unsigned core) {
  uint32_t entry, mask;
  return tsim_preload_start(core, &entry, &mask) ? entry : run.entry;
}
/* --all-threads: every thread; booting through the host link: thread 0 of
   every core, as Tinsel after power-up; else thread 0 of core 0 of each board.
   CORE is run-wide (board index * CoresPerBoard + core). */
unsigned tsim_start_mask(unsigned core) {
  uint32_t entry, mask;
  if (tsim_preload_start(core, &entry, &mask)) return mask;
  if (run.args.all_threads) return (1u << TinselThreadsPerCore) - 1;
  return run.args.hostlink && !run.args.elf ? 1u : core % TinselCoresPerBoard == 0;
}
svBit tsim_profile_full(void) { return (svBit)run.args.profile_full; }
unsigned tsim_imem_word(unsigned index) { return index < run.imem_words ? run.imem[index] : 0; }
unsigned tsim_imem_words(void) { return run.imem_words; }
/* --preload: a core pair with its own image (PAIR run-wide). */
unsigned tsim_imem_pair_loaded(unsigned pair) { return tsim_preload_pair(pair) != NULL; }
unsigned tsim_imem_pair_word(unsigned pair, unsigned index) {
  const uint32_t *w = tsim_preload_pair(pair);
  return w && index < run.imem_words ? w[index] : 0;
}

/* As Tinsel's boot loader: the top of the thread's interleaved DRAM partition. */
unsigned tsim_initial_sp(unsigned core, unsigned thread) {
  uint32_t id = core << TinselLogThreadsPerCore | thread;
  uint32_t part = id & (TinselThreadsPerDRAM - 1);
  return (TinselBytesPerDRAM - (part << TinselLogBytesPerDRAMPartition) - 32) | 0x80000000u;
}

unsigned tsim_fp(unsigned instr, unsigned a, unsigned b, unsigned c) { return tsim_fp_op(instr, a, b, c); }

void tsim_halt(unsigned core, unsigned thread, unsigned pc, unsigned instr, int reason) {
  switch (reason) {
  case HALT_PROFILE: halt_message(core, thread, pc, instr, "not in profile tinsel"); break;
  case HALT_PC:  /* nothing was fetched */
    fprintf(stderr, "tsim: board %u, core %u, thread %u, pc 0x%08x: outside instruction memory [0, 0x%x)\n",
            core / TinselCoresPerBoard, core % TinselCoresPerBoard, thread, pc, 4 * run.imem_words);
    tsim_stop = TSIM_STOP_HALT;
    break;
  case HALT_CSR: {
    char what[64];
    snprintf(what, sizeof what, "unknown CSR 0x%03x", instr >> 20);
    halt_message(core, thread, pc, instr, what);
    break;
  }
  default: halt_message(core, thread, pc, instr, "illegal instruction"); break;
  }
}

void tsim_emit(unsigned core, unsigned thread, unsigned value) {
  tsim_debuglink_stdout_flush(core, thread);  /* the thread's partial line first */
  printf("emit: core %u thread %u: 0x%08x (%d)\n", core, thread, value, (int)value);
}

void tsim_uart_put(unsigned core, unsigned thread, unsigned value) {
  tsim_debuglink_stdout(core, thread, (uint8_t)value);
}

void tsim_core_stats(unsigned core, unsigned long long retired, unsigned long long idle, unsigned long long susp_mem,
                     unsigned long long susp_fpu, unsigned long long susp_mb, unsigned long long retry) {
  if (core >= TSIM_CORES) return;
  run.core[core].retired = retired;
  run.core[core].idle = idle;
  run.core[core].susp_mem = susp_mem;
  run.core[core].susp_fpu = susp_fpu;
  run.core[core].susp_mb = susp_mb;
  run.core[core].retry = retry;
}

void tsim_cache_stats(unsigned tile, unsigned long long hits, unsigned long long misses, unsigned long long writebacks) {
  if (tile >= TSIM_TILES) return;
  run.cache[tile].hits = hits;
  run.cache[tile].misses = misses;
  run.cache[tile].writebacks = writebacks;
}

/* ---------------------------------------------------------------- loading */

static int load_section(const char *path, const Elf32Section *s) {
  uint32_t end = s->addr + s->size;  /* elf32_load checked it does not wrap */
  if (s->kind & ELF32_SEC_EXEC) {
    if (end > 4 * run.imem_words || (s->addr & 3)) {
      fprintf(stderr, "tsim: %s: error: section %s [0x%08x, 0x%08x) lies outside instruction memory [0, 0x%x)\n",
              path, s->name, s->addr, end, 4 * run.imem_words);
      return -1;
    }
    for (uint32_t i = 0; i < s->size; i++)
      if (s->data)
        run.imem[(s->addr + i) / 4] |= (uint32_t)s->data[i] << (8 * ((s->addr + i) & 3));
    return 0;
  }
  /* Data: into every DRAM slice, or every tile's scratchpad. */
  unsigned space;
  uint32_t phys;
  for (uint32_t i = 0; i < s->size; i++) {
    if (locate(0, s->addr + i, &space, &phys)) {
      fprintf(stderr, "tsim: %s: error: section %s [0x%08x, 0x%08x) lies outside every memory region (address 0x%08x)\n",
              path, s->name, s->addr, end, s->addr + i);
      return -1;
    }
  }
  if (!s->data) return 0;  /* .bss: memory starts zero */
  /* Every board's DRAM slices, or every tile's scratchpad. */
  unsigned copies = tsim_boards() * (s->addr >> TinselLogOffChipRAMBaseAddr ? TinselDRAMsPerBoard : TinselMailboxesPerBoard);
  for (unsigned copy = 0; copy < copies; copy++) {
    unsigned core = copy * (s->addr >> TinselLogOffChipRAMBaseAddr ? TinselCoresPerDRAM : TinselCoresPerMailbox);
    for (uint32_t i = 0; i < s->size; i++) {
      locate(core, s->addr + i, &space, &phys);
      tsim_mem_write(space, phys, 1, s->data[i]);
    }
  }
  return 0;
}

static int preload_write_byte(unsigned core, uint32_t addr, uint8_t byte) {
  unsigned space;
  uint32_t phys;
  if (locate(core, addr, &space, &phys)) return -1;
  tsim_mem_write(space, phys, 1, byte);
  return 0;
}

/* --preload FILE over the program or boot loader just loaded. */
static int preload(const char *path) {
  enum { CORES_PER_PAIR = TinselSharedInstrMem && TinselCoresPerMailbox > 1 ? 2 : 1 };
  TsimPreloadRun r = {tsim_boards() * TinselCoresPerBoard, CORES_PER_PAIR, run.imem_words, TinselThreadsPerCore,
                      run.imem, preload_write_byte};
  return tsim_preload_load(path, &r);
}

int tsim_run_load(const TsimArgs *a) {
  Elf32 elf;
  char err[512];
  const char *path = a->elf ? a->elf : a->boot ? a->boot : TSIM_BOOT_ELF;
  run.args = *a;
  if (!strcmp(a->config, "box")) tsim_boards_set(TSIM_BOX_X, TSIM_BOX_Y);
  if (!strcmp(a->config, "cluster")) tsim_boards_set(TSIM_CLUSTER_X, TSIM_CLUSTER_Y);
  run.imem_words = a->imem_enlarged ? 1u << TinselEnlargedLogInstrsPerCore : TinselInstrsPerCore;
  if (a->imem_enlarged)
    fprintf(stderr, "tsim: instruction memory enlarged to %u bytes (EnlargedLogInstrsPerCore), not real Tinsel\n",
            4 * run.imem_words);
  tsim_mbox_set_delay(a->delay_on, a->delay_seed, (unsigned)a->delay_max);
  tsim_dcache_set_coherent(a->coherent_dcache);
  if (a->coherent_dcache) fprintf(stderr, "tsim: data caches coherent (--coherent-dcache), not real Tinsel\n");
  if (elf32_load(path, &elf, err, sizeof err)) {
    fprintf(stderr, "tsim: %s\n", err);
    elf32_free(&elf);
    return TSIM_EXIT_INPUT;
  }
  int rc = 0;
  for (int i = 0; i < elf.nsecs && !rc; i++) rc = load_section(path, &elf.secs[i]);
  if (!rc && (elf.entry >= 4 * run.imem_words || (elf.entry & 3))) {
    fprintf(stderr, "tsim: %s: error: entry point 0x%08x is outside instruction memory [0, 0x%x)\n", path,
            elf.entry, 4 * run.imem_words);
    rc = -1;
  }
  /* With a host link the host ends the run; without one a program with no
     tohost ends when its threads are killed or idle (tsim_run_quiet_cycles).
     Its main may return (Tinsel's entry is `j main`, ra 0): when the
     program puts nothing at address 0, a kill stub there ends the thread
     as Tinsel's boot loader ends threads whose main returned. */
  if (!rc && elf32_symbol(&elf, "tohost", &run.tohost)) run.tohost = 0xffffffffu;  /* stores are aligned: none hits it */
  if (!rc && a->elf && run.tohost == 0xffffffffu) {
    run.no_tohost = 1;
    int at_zero = 0;
    for (int i = 0; i < elf.nsecs; i++)
      if ((elf.secs[i].kind & ELF32_SEC_EXEC) && elf.secs[i].addr < 4 && elf.secs[i].size) at_zero = 1;
    if (!at_zero) run.imem[0] = KILL_STUB;
    if (!a->hostlink)
      fprintf(stderr, "tsim: %s: no symbol tohost: the run ends when every thread is killed or the board is idle%s\n",
              path, at_zero ? "" : " (address 0 kills the thread: main may return)");
  }
  run.entry = elf.entry;
  elf32_free(&elf);
  if (!rc && a->preload) rc = preload(a->preload);
  return rc ? TSIM_EXIT_INPUT : 0;
}

/* ---------------------------------------------------------------- outcome */

uint32_t tsim_run_tohost(void) { return run.tohost; }

int tsim_mem_plain(unsigned core, uint32_t addr, unsigned size, int store) {
  unsigned space;
  uint32_t phys;
  return !(addr & (size - 1)) && !(store && addr == run.tohost) && !locate(core, addr, &space, &phys);
}

uint32_t tsim_run_tohost_value(void) { return run.tohost_value; }
void tsim_run_set_tohost_value(uint32_t v) { run.tohost_value = v; }

void tsim_run_stats_reduce(void (*or)(void *buf, size_t bytes)) {
  or(run.core, sizeof run.core);
  or(run.cache, sizeof run.cache);
}

unsigned long long tsim_run_quiet_cycles(void) {
  if (!run.no_tohost || run.args.hostlink) return 0;
  return 1024 + (run.args.delay_on ? (unsigned long long)run.args.delay_max : 0);
}

/* TSIM_STOP_QUIET: every thread killed, idle, or (threads awake or
   messages stuck) a deadlock. */
static int quiet_end(unsigned long long cycles) {
  TsimThreadCounts c;
  tsim_threads_count(&c);
  int in_flight = tsim_mbox_in_flight();
  unsigned long long since = cycles - tsim_run_quiet_cycles();
  if (!c.alive) {
    fprintf(stderr, "tsim: every thread killed: no thread alive after %llu cycles (quiet since cycle %llu)\n",
            cycles, since);
    return TSIM_EXIT_PASS;
  }
  if (!c.awake && !in_flight) {
    fprintf(stderr, "tsim: idle: %u thread%s waiting (%u in WaitUntil(CAN_RECV), %u in WaitUntil(CAN_SEND), %u in "
            "tinselIdle), no message in flight, after %llu cycles (quiet since cycle %llu)\n", c.alive,
            c.alive == 1 ? "" : "s", c.wait_recv, c.wait_send, c.in_idle, cycles, since);
    return TSIM_EXIT_PASS;
  }
  fprintf(stderr, "tsim: error: deadlock: no instruction retired and no message moved for %llu cycles, at cycle "
          "%llu, with %u thread%s awake and %d message%s in flight; threads:\n", tsim_run_quiet_cycles(), cycles,
          c.awake, c.awake == 1 ? "" : "s", in_flight, in_flight == 1 ? "" : "s");
  tsim_threads_report();
  return TSIM_EXIT_DEADLOCK;
}

/* --stats-file: one `key value` line per figure (sim/README.md). */
static void write_stats_file(const char *path, unsigned long long cycles, double host_seconds, int status) {
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    fprintf(stderr, "tsim: %s: cannot write the statistics\n", path);
    return;
  }
  unsigned long long total = 0;
  /* Cores are numbered run-wide: board index * CoresPerBoard + core. */
  fprintf(f, "exit %d\ncycles %llu\nhost-cpu-seconds %.3f\nboards %u\ncores %u\n", status, cycles, host_seconds,
          tsim_boards(), tsim_boards() * TinselCoresPerBoard);
  for (unsigned c = 0; c < tsim_boards() * TinselCoresPerBoard; c++) {
    fprintf(f, "core.%u.retired %llu\ncore.%u.idle %llu\n", c, run.core[c].retired, c, run.core[c].idle);
    total += run.core[c].retired;
  }
  fprintf(f, "retired %llu\n", total);
  tsim_mbox_stats_file(f);
  tsim_hostlink_stats_file(f);
  if (fclose(f)) fprintf(stderr, "tsim: %s: cannot write the statistics\n", path);
}

int tsim_run_finish(unsigned long long cycles, double host_seconds) {
  int status;
  tsim_debuglink_stdout_flush_all();
  fflush(stdout);
  if (tsim_stop == TSIM_STOP_QUIET) {
    status = quiet_end(cycles);
  } else if (tsim_stop == TSIM_STOP_TOHOST) {
    uint32_t v = run.tohost_value;
    if (v == 1) {
      fprintf(stderr, "tsim: PASS (tohost = 1) after %llu cycles\n", cycles);
      status = TSIM_EXIT_PASS;
    } else {
      uint32_t code = v >> 1;
      fprintf(stderr, "tsim: FAIL (tohost = %u, code %u) after %llu cycles\n", v, code, cycles);
      status = code == 0 ? 1 : code > TSIM_EXIT_FAIL_MAX ? TSIM_EXIT_FAIL_MAX : (int)code;
    }
  } else if (tsim_stop == TSIM_STOP_HOST_CLOSED) {
    fprintf(stderr, "tsim: hostlink: the host closed the link after %llu cycles\n", cycles);
    status = TSIM_EXIT_PASS;
  } else if (tsim_stop == TSIM_STOP_HALT) {
    status = TSIM_EXIT_HALT;
  } else if (tsim_stop == TSIM_STOP_DEADLOCK) {
    fprintf(stderr, "tsim: error: deadlock: no instruction retired and no message moved for %llu cycles (--watchdog), at cycle %llu; threads:\n",
            run.args.watchdog, cycles);
    tsim_threads_report();
    status = TSIM_EXIT_DEADLOCK;
  } else {
    fprintf(stderr, "tsim: error: --max-cycles %llu exceeded without %s\n", run.args.max_cycles,
            run.no_tohost ? "every thread killed or idle (the program has no tohost)" : "a store to tohost");
    status = TSIM_EXIT_TIMEOUT;
  }
  if (status == TSIM_EXIT_PASS && tsim_debuglink_lost()) status = TSIM_EXIT_OUTPUT;
  if (!run.args.quiet) {
    unsigned long long total = 0;
    fprintf(stderr, "tsim: cycles %llu\n", cycles);
    for (unsigned c = 0; c < tsim_boards() * TinselCoresPerBoard; c++) {
      fprintf(stderr, "tsim: %score %u: retired %llu idle %llu susp-mem %llu susp-fpu %llu susp-mailbox %llu retry %llu\n",
              tsim_board_prefix(c / TinselCoresPerBoard), c % TinselCoresPerBoard, run.core[c].retired,
              run.core[c].idle, run.core[c].susp_mem, run.core[c].susp_fpu,
              run.core[c].susp_mb, run.core[c].retry);
      total += run.core[c].retired;
    }
    for (unsigned t = 0; t < tsim_boards() * TinselMailboxesPerBoard; t++)
      fprintf(stderr, "tsim: %stile %u cache: hits %llu misses %llu writebacks %llu\n",
              tsim_board_prefix(t / TinselMailboxesPerBoard), t % TinselMailboxesPerBoard, run.cache[t].hits,
              run.cache[t].misses, run.cache[t].writebacks);
    unsigned long long dirty = tsim_dcache_dirty_lines();
    if (dirty) fprintf(stderr, "tsim: data caches: %llu dirty lines never written back to memory\n", dirty);
    double secs = host_seconds > 0 ? host_seconds : 1e-9;
    fprintf(stderr, "tsim: total: retired %llu ipc %.3f host-cpu %.2f s %.3f M cycles/s %.3f M instr/s\n", total,
            cycles ? (double)total / (double)cycles : 0.0, host_seconds, (double)cycles / secs / 1e6,
            (double)total / secs / 1e6);
    tsim_mbox_print_stats();
    tsim_pr_print_stats();
    tsim_links_print_stats(cycles);
    tsim_hostlink_print_stats();
  }
  if (run.args.stats_file) write_stats_file(run.args.stats_file, cycles, host_seconds, status);
  tsim_preload_free();
  tsim_dcache_free_all();
  tsim_mem_free_all();
  return status;
}
