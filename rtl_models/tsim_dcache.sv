// tsim_dcache.sv: the latency model of a tile's data cache (the mailbox's
// scratchpad has its own port and latency: tsim_core.sv).
//
// The cache's contents live in C (sim/tsim_dcache.c): the core performs each
// load, store and CSR Flush there when it is granted, and the C cache says
// what it did (hit, miss to SRAM or DRAM, flush, whether a dirty line went
// back). One cache decides both the data a thread sees and the latency it
// pays: Tinsel's thread-partitioned, set-associative, write-back cache,
// round-robin replacement per set (Tinsel: pseudo-LRU), not coherent across
// threads. This module counts hits, misses and writebacks (CSRs HitCount...)
// and resumes the thread when the latency has passed.
// State touched only by this module's own clocked block (timing wheel) is
// updated with blocking assignments: cheaper in Verilator.
/* verilator lint_off BLKSEQ */
module tsim_dcache
  import tinsel_pkg::*;
  import tsim_dpi::*;
#(
  parameter int unsigned NC = 4  // cores sharing the cache
) (
  input  logic clk,
  input  logic [63:0] cycle,  // the cycle being clocked (tsim_core)
  input  logic [31:0] tile_id,
  // The access granted last cycle (at most one per cycle) and its outcome.
  input  logic                         req_valid,
  input  logic [$clog2(NC+1)-1:0]      req_core,
  input  logic [LogThreadsPerCore-1:0] req_tid,
  input  logic [3:0]                   req_outcome,
  output logic [NC*ThreadsPerCore-1:0] resume,  // {core, thread} bits resuming this cycle
  output logic [31:0] hits, misses, writebacks
);
  localparam int unsigned LPart = $clog2(NC) + LogThreadsPerCore;  // partition: {core, thread}
  localparam int unsigned MaxLat = PipelineStages + DCacheHitLatency
                                   + (DRAMLatency > SRAMLatency ? DRAMLatency : SRAMLatency);
  localparam int unsigned LW = $clog2(MaxLat + 1);

  logic [NC*ThreadsPerCore-1:0] wheel [2**LW];
  logic [2**LW-1:0] wheel_busy = 0;  // slots holding a thread; none: the block sleeps
  logic [LW-1:0] now;                // wheel position: the cycle, modulo the wheel
  assign now = cycle[LW-1:0];
  longint unsigned n_hits = 0, n_misses = 0, n_writebacks = 0;

  initial for (int i = 0; i < 2**LW; i++) wheel[i] = 0;

  final tsim_cache_stats(tile_id, n_hits, n_misses, n_writebacks);

  assign hits = n_hits[31:0];
  assign misses = n_misses[31:0];
  assign writebacks = n_writebacks[31:0];

  always_ff @(posedge clk) begin : step
    int unsigned lat;

    // Asleep (no request, nothing due from the wheel, nothing to resume): nothing changes.
    if (req_valid || wheel_busy[now] || resume != 0) begin
    resume <= wheel[now];
    if (wheel_busy[now]) begin
      wheel[now] = 0;
      wheel_busy[now] = 1'b0;
    end
    if (req_valid) begin
      unique case (32'(req_outcome[2:0]))
        DcHit: begin lat = DCacheHitLatency; n_hits <= n_hits + 1; end
        DcMissSram: begin lat = DCacheHitLatency + SRAMLatency; n_misses <= n_misses + 1; end
        DcMissDram: begin lat = DCacheHitLatency + DRAMLatency; n_misses <= n_misses + 1; end
        default: lat = DCacheHitLatency;  // DcFlush
      endcase
      if ((32'(req_outcome) & DcWriteback) != 0) n_writebacks <= n_writebacks + 1;
      // Issued two cycles ago (request register, then this stage); the resume
      // register adds one: the thread is ready PipelineStages + lat after issue.
      wheel[now + LW'(PipelineStages + lat - 3)][LPart'({req_core, req_tid})] = 1'b1;
      wheel_busy[now + LW'(PipelineStages + lat - 3)] = 1'b1;
    end
    end
  end
endmodule
