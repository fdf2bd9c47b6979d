// tsim_dcache.sv: the latency model of a tile's data cache and scratchpad.
//
// Data lives in the C backing store (the core performs the access when it is
// granted); this module keeps only the tags of Tinsel's thread-partitioned,
// set-associative, write-back cache to decide each access's latency, counts
// hits, misses and writebacks, and resumes the thread when the latency has
// passed. Replacement is round-robin per set (Tinsel: pseudo-LRU).
// State touched only by this module's own clocked block (register file, timing
// wheel, tags) is updated with blocking assignments: cheaper in Verilator.
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
  // The access granted last cycle (at most one per cycle).
  input  logic                         req_valid,
  input  logic [$clog2(NC+1)-1:0]      req_core,
  input  logic [LogThreadsPerCore-1:0] req_tid,
  input  logic [31:0]                  req_addr,
  input  logic                         req_store,
  input  logic                         req_flush,
  output logic [NC*ThreadsPerCore-1:0] resume,  // {core, thread} bits resuming this cycle
  output logic [31:0] hits, misses, writebacks
);
  localparam int unsigned LWays = DCacheLogNumWays;
  localparam int unsigned LSets = DCacheLogSetsPerThread;
  localparam int unsigned LPart = $clog2(NC) + LogThreadsPerCore;  // partition: {core, thread}
  localparam int unsigned MaxLat = PipelineStages + DCacheHitLatency
                                   + (DRAMLatency > SRAMLatency ? DRAMLatency : SRAMLatency);
  localparam int unsigned LW = $clog2(MaxLat + 1);
  localparam int unsigned TagBits = 32 - LogBytesPerLine - LSets;

  // Tag entry: {valid, dirty, tag}.
  logic [TagBits+1:0] tags [2**(LPart+LSets+LWays)];
  logic [LWays-1:0]   victim [2**(LPart+LSets)];
  logic [NC*ThreadsPerCore-1:0] wheel [2**LW];
  logic [2**LW-1:0] wheel_busy = 0;  // slots holding a thread; none: the block sleeps
  logic [LW-1:0] now;                // wheel position: the cycle, modulo the wheel
  assign now = cycle[LW-1:0];
  longint unsigned n_hits = 0, n_misses = 0, n_writebacks = 0;

  initial begin
    for (int i = 0; i < 2**(LPart+LSets+LWays); i++) tags[i] = 0;
    for (int i = 0; i < 2**(LPart+LSets); i++) victim[i] = 0;
    for (int i = 0; i < 2**LW; i++) wheel[i] = 0;
  end

  final tsim_cache_stats(tile_id, n_hits, n_misses, n_writebacks);

  assign hits = n_hits[31:0];
  assign misses = n_misses[31:0];
  assign writebacks = n_writebacks[31:0];

  always_ff @(posedge clk) begin : step
    logic [LPart+LSets-1:0] set;
    logic [TagBits-1:0] tag;
    logic [LWays-1:0] way;
    logic hit;
    int unsigned lat;

    // Asleep (no request, nothing due from the wheel, nothing to resume): nothing changes.
    if (req_valid || wheel_busy[now] || resume != 0) begin
    resume <= wheel[now];
    if (wheel_busy[now]) begin
      wheel[now] = 0;
      wheel_busy[now] = 1'b0;
    end
    if (req_valid) begin
      lat = DCacheHitLatency;
      if (req_flush) begin
        // CSR Flush value: (line within the thread's partition << LWays) | way.
        set = {LPart'({req_core, req_tid}), req_addr[LWays +: LSets]};
        way = req_addr[LWays-1:0];
        if (tags[{set, way}][TagBits+1:TagBits] == 2'b11) n_writebacks <= n_writebacks + 1;
        tags[{set, way}] = 0;
      end else if (req_addr[31:16] == 0) begin
        lat = ScratchpadLatency;  // the mailbox scratchpad is not cached
      end else begin
        set = {LPart'({req_core, req_tid}), req_addr[LogBytesPerLine +: LSets]};
        tag = req_addr[31 -: TagBits];
        hit = 0;
        way = victim[set];
        for (int w = 0; w < 2**LWays; w++)
          if (tags[{set, LWays'(w)}] == {1'b1, 1'b0, tag} || tags[{set, LWays'(w)}] == {1'b1, 1'b1, tag}) begin
            hit = 1; way = LWays'(w);
          end
        if (hit) n_hits <= n_hits + 1;
        else begin
          n_misses <= n_misses + 1;
          if (tags[{set, way}][TagBits+1:TagBits] == 2'b11) n_writebacks <= n_writebacks + 1;
          victim[set] <= way + 1'b1;
          lat += req_addr >= SRAMBase && req_addr < DRAMBase ? SRAMLatency : DRAMLatency;
        end
        tags[{set, way}] = {1'b1, req_store || (hit && tags[{set, way}][TagBits]), tag};
      end
      // Issued two cycles ago (request register, then this stage); the resume
      // register adds one: the thread is ready PipelineStages + lat after issue.
      wheel[now + LW'(PipelineStages + lat - 3)][LPart'({req_core, req_tid})] = 1'b1;
      wheel_busy[now + LW'(PipelineStages + lat - 3)] = 1'b1;
    end
    end
  end
endmodule
