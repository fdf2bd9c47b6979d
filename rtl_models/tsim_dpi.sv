// tsim_dpi.sv: the C functions the models call (sim/tsim_dpi.c, sim/tsim_fpu.c).
// Functional memory and FP arithmetic live in C: DRAM/SRAM/scratchpad are a
// sparse store (small host cache footprint), and FP must be bit-exact IEEE
// single, which Verilator 5.006's shortreal is not.
package tsim_dpi;
  import tinsel_pkg::*;
  // Instruction memory the model allocates per core pair: the enlarged size
  // (tsim --imem enlarged); a run checks its own limit, tsim_imem_words().
  localparam int unsigned LogImemModel = EnlargedLogInstrsPerCore > LogInstrsPerCore
                                         ? EnlargedLogInstrsPerCore : LogInstrsPerCore;
  // The cycles clocked so far (the harness's count, sim/tsim_main.cpp), for
  // final blocks (while running, the models' `cycle` input has it).
  import "DPI-C" function longint unsigned tsim_cycle();
  // Run settings, read once at time 0.
  // Where CORE's threads start: the program's entry, or its tsim --preload START entry.
  import "DPI-C" function int unsigned tsim_entry(input int unsigned core);
  // The threads of CORE that run from the first cycle (bit t: thread t):
  // --all-threads, thread 0 of core 0, or thread 0 of every core (boot loader).
  import "DPI-C" function int unsigned tsim_start_mask(input int unsigned core);
  import "DPI-C" function bit tsim_profile_full();
  import "DPI-C" function int unsigned tsim_initial_sp(input int unsigned core, input int unsigned thread);
  import "DPI-C" function int unsigned tsim_imem_word(input int unsigned index);
  // tsim --preload: non-zero when core pair PAIR (run-wide) has its own instruction
  // memory image; then its words, which the tile loads in the first cycle.
  import "DPI-C" function int unsigned tsim_imem_pair_loaded(input int unsigned pair);
  import "DPI-C" function int unsigned tsim_imem_pair_word(input int unsigned pair, input int unsigned index);
  // Words of instruction memory per core pair in this run (InstrsPerCore, or
  // 2**EnlargedLogInstrsPerCore with --imem enlarged).
  import "DPI-C" function int unsigned tsim_imem_words();
  // The board router's counters for CSRs ProgRouterSent (which 0) and
  // ProgRouterSentInter (1) of board BOARD (sim/tsim_progrouter.c).
  import "DPI-C" function int unsigned tsim_pr_counter(input int unsigned board, input int unsigned which);
  // A load or store (instr tells which) by a thread, through its tile's data
  // cache (sim/tsim_dcache.h); returns 0, or non-zero after reporting a halt
  // (misaligned, unmapped). outcome: what the cache did, for the latency model
  // (DcScratchpad... below). Stores to tohost stop the run.
  import "DPI-C" function int tsim_mem(input int unsigned core, input int unsigned thread,
                                       input int unsigned pc, input int unsigned instr,
                                       input int unsigned addr, input int unsigned wdata,
                                       output int unsigned rdata, output int unsigned outcome);
  // CSR Flush by a thread: value (line << DCacheLogNumWays) | way; returns the outcome.
  import "DPI-C" function int unsigned tsim_dc_flush(input int unsigned core, input int unsigned thread,
                                                     input int unsigned value);
  // One OP-FP or fused instruction: operands rs1, rs2, rs3 (bits), result bits.
  import "DPI-C" function int unsigned tsim_fp(input int unsigned instr, input int unsigned a,
                                               input int unsigned b, input int unsigned c);
  // Stop the run with a message naming the instruction; reason: see tsim_dpi.h.
  import "DPI-C" function void tsim_halt(input int unsigned core, input int unsigned thread,
                                         input int unsigned pc, input int unsigned instr,
                                         input int reason);
  import "DPI-C" function void tsim_emit(input int unsigned core, input int unsigned thread,
                                         input int unsigned value);
  import "DPI-C" function void tsim_uart_put(input int unsigned core, input int unsigned thread,
                                             input int unsigned value);
  // End-of-run statistics, from final blocks.
  import "DPI-C" function void tsim_core_stats(input int unsigned core, input longint unsigned retired,
                                               input longint unsigned idle, input longint unsigned susp_mem,
                                               input longint unsigned susp_fpu, input longint unsigned susp_mb,
                                               input longint unsigned retry);
  // One thread at the end of the run: started and not stopped, ready to issue, pc.
  import "DPI-C" function void tsim_thread_state(input int unsigned core, input int unsigned thread,
                                                 input bit alive, input bit ready, input int unsigned pc);
  import "DPI-C" function void tsim_cache_stats(input int unsigned tile, input longint unsigned hits,
                                                input longint unsigned misses, input longint unsigned writebacks);

  // Halt reasons (match enum tsim_halt_reason in sim/tsim_dpi.h).
  localparam int HaltProfile = 1;  // exists in RV32IMF but not on Tinsel
  localparam int HaltIllegal = 2;  // not an instruction we know
  localparam int HaltPc      = 3;  // pc outside instruction memory
  localparam int HaltCsr     = 4;  // unknown CSR
  // Data-cache outcomes (match sim/tsim_dcache.h): bits 2:0, and bit 3 when a
  // dirty line was written back.
  localparam int unsigned DcScratchpad = 0, DcHit = 1, DcMissSram = 2, DcMissDram = 3, DcFlush = 4;
  localparam int unsigned DcWriteback = 8;
endpackage
