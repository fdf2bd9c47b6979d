// tsim_tile.sv: a tile: CoresPerMailbox cores sharing one FPU, one data cache
// and one mailbox (mbox.sv), with one instruction
// memory per core pair (SharedInstrMem) loaded from the ELF at time 0.
module tsim_tile
  import tinsel_pkg::*;
  import tsim_dpi::*;
(
  input logic        clk,
  input logic [63:0] cycle /*verilator public_flat_rd*/,       // the cycle being clocked (tsim_core)
  input logic [31:0] tile_id /*verilator public_flat_rd*/,     // board index * MailboxesPerBoard + tile (a port, not a parameter:
                                  // one Verilator class for all tiles)
  input logic [31:0] board_xy /*verilator public_flat_rd*/,  // the board's mesh address {Y, X} (tsim_core: HartId)
  // The mailbox's network port and idle-detection signals (mbox.sv, noc.sv, tsim_top.sv).
  output logic                         net_out_valid,
  input  logic                         net_out_ready /*verilator public_flat_rd*/,
  output logic [31:0]                  net_out_dest,
  output logic [LogMaxFlitsPerMsg-1:0] net_out_len,
  output logic [31:0]                  net_out_msg,
  input  logic                         net_in_valid /*verilator public_flat_rd*/,
  output logic                         net_in_ready,
  input  logic [LogMaxFlitsPerMsg-1:0] net_in_len /*verilator public_flat_rd*/,
  input  logic [31:0]                  net_in_msg /*verilator public_flat_rd*/,
  output logic                         idle_all,
  output logic                         vote_all,
  output logic [31:0]                  inflight,
  input  logic                         idle_release /*verilator public_flat_rd*/,
  input  logic [31:0]                  idle_result /*verilator public_flat_rd*/,
  // Something happened this cycle: an instruction retired or a message
  // entered or left the mailbox (the watchdog, tsim_top.sv).
  output logic                         active
);
  // public_flat_rd input ports and no function calls in combinational
  // blocks (the arbiters): every tile's generated code is the same
  // (tsim_core.sv).
  /*verilator no_inline_module*/
  localparam int unsigned NC = CoresPerMailbox;
  localparam int unsigned T  = ThreadsPerCore;
  localparam int unsigned LT = LogThreadsPerCore;
  localparam int unsigned LI = LogImemModel;  // sized for --imem enlarged; the run checks its limit
  localparam int unsigned CoresPerImem = SharedInstrMem != 0 && NC > 1 ? 2 : 1;
  localparam int unsigned NI = NC / CoresPerImem;
  localparam int unsigned CW = $clog2(NC + 1);

  initial if (LogCoresPerFPU != LogCoresPerMailbox || LogCoresPerDCache != LogCoresPerMailbox)
    $fatal(1, "tsim_tile: the model needs one FPU and one data cache per tile");

  logic [31:0] imem [NI][2 ** LI];
  initial for (int m = 0; m < NI; m++)
    for (int i = 0; i < 2 ** LI; i++) imem[m][i] = tsim_imem_word(i);
  // tsim --preload: core pairs with their own image get it at the first edge
  // (tile_id is known then), before any thread issues (tsim_core.sv starts
  // its threads at that edge, so they fetch from the next cycle).
  logic imem_preloaded = 0;
  // Blocking: loops may not hold delayed array writes (Verilator BLKLOOPINIT).
  /* verilator lint_off BLKSEQ */
  always_ff @(posedge clk) if (!imem_preloaded) begin
    imem_preloaded <= 1;
    for (int m = 0; m < NI; m++)
      if (tsim_imem_pair_loaded(tile_id * NI + 32'(m)) != 0)
        for (int i = 0; i < 2 ** LI; i++) imem[m][i] = tsim_imem_pair_word(tile_id * NI + 32'(m), 32'(i));
  end
  /* verilator lint_on BLKSEQ */

  logic [NC-1:0] retiring;
  assign active = retiring != 0 || (net_out_valid && net_out_ready) || (net_in_valid && net_in_ready);
  logic [NC-1:0] fpu_req, fpu_gnt, dc_req, dc_gnt, sp_req, sp_gnt, mb_req, mb_gnt, dc_valid, mb_valid;
  logic [LI-1:0] imem_waddr [NC];
  logic [31:0]   imem_wdata [NC];
  logic [NC-1:0] imem_we;
  logic [LT-1:0] dc_tid [NC];
  logic [3:0]    dc_outcome [NC];
  logic [NC*T-1:0] dc_resume;
  logic [31:0]   dc_hits, dc_misses, dc_writebacks;

  tsim_arbiter #(.N(NC)) fpu_arb (.clk, .req(fpu_req), .gnt(fpu_gnt));
  tsim_arbiter #(.N(NC)) dc_arb  (.clk, .req(dc_req),  .gnt(dc_gnt));
  tsim_arbiter #(.N(NC)) sp_arb  (.clk, .req(sp_req),  .gnt(sp_gnt));  // the mailbox's scratchpad port
  tsim_arbiter #(.N(NC)) mb_arb  (.clk, .req(mb_req),  .gnt(mb_gnt));

  // The mailbox (mbox.sv): the cores' requests in, answers out.
  logic [NC-1:0] mb_wants_resp, mb_resp_valid, mb_send;
  logic [LT-1:0] mb_tid [NC], mb_resp_tid [NC];
  logic [11:0]   mb_csr [NC];
  logic [31:0]   mb_wdata [NC], mb_wdata2 [NC], mb_resp_data [NC];
  mbox #(.NC(NC)) mbx (
    .clk, .cycle, .tile_id, .req_valid(mb_valid), .req_tid(mb_tid), .req_send(mb_send), .req_csr(mb_csr),
    .req_wdata(mb_wdata), .req_wdata2(mb_wdata2), .req_wants_resp(mb_wants_resp),
    .resp_valid(mb_resp_valid), .resp_tid(mb_resp_tid), .resp_data(mb_resp_data),
    .out_valid(net_out_valid), .out_ready(net_out_ready), .out_dest(net_out_dest), .out_len(net_out_len),
    .out_msg(net_out_msg), .in_valid(net_in_valid), .in_ready(net_in_ready), .in_len(net_in_len),
    .in_msg(net_in_msg), .idle_all, .vote_all, .inflight, .idle_release, .idle_result
  );

  for (genvar c = 0; c < NC; c++) begin : core
    localparam int unsigned M = c / CoresPerImem;
    logic [LI-1:0] imem_raddr;
    logic [31:0]   imem_rdata;
    assign imem_rdata = imem[M][imem_raddr];
    always_ff @(posedge clk) if (imem_we[c]) imem[M][imem_waddr[c]] <= imem_wdata[c];

    tsim_core u (
      .clk, .cycle, .core_id(tile_id * NC + c), .board_xy,
      .imem_raddr, .imem_rdata, .imem_we(imem_we[c]),
      .imem_waddr(imem_waddr[c]), .imem_wdata(imem_wdata[c]),
      .fpu_req(fpu_req[c]), .fpu_gnt(fpu_gnt[c]),
      .dc_req(dc_req[c]), .dc_gnt(dc_gnt[c]), .dc_valid(dc_valid[c]), .dc_tid(dc_tid[c]),
      .dc_outcome(dc_outcome[c]),
      .dc_resume(dc_resume[c*T +: T]), .dc_hits, .dc_misses, .dc_writebacks,
      .sp_req(sp_req[c]), .sp_gnt(sp_gnt[c]),
      .mb_req(mb_req[c]), .mb_gnt(mb_gnt[c]), .mb_valid(mb_valid[c]), .mb_tid(mb_tid[c]),
      .mb_send(mb_send[c]), .mb_csr(mb_csr[c]), .mb_wdata(mb_wdata[c]), .mb_wdata2(mb_wdata2[c]),
      .mb_wants_resp(mb_wants_resp[c]), .mb_resp_valid(mb_resp_valid[c]), .mb_resp_tid(mb_resp_tid[c]),
      .mb_resp_data(mb_resp_data[c]), .retiring(retiring[c])
    );
  end

  // At most one core's access is valid per cycle (one grant per cycle).
  logic          req_valid;
  logic [CW-1:0] req_core;
  logic [LT-1:0] req_tid;
  logic [3:0]    req_outcome;
  always_comb begin
    req_valid = 0; req_core = 0; req_tid = 0; req_outcome = 0;
    if (dc_valid != 0)
    for (int c = 0; c < NC; c++)
      if (dc_valid[c]) begin
        req_valid = 1; req_core = CW'(c); req_tid = dc_tid[c];
        req_outcome = dc_outcome[c];
      end
  end

  tsim_dcache #(.NC(NC)) dcache (
    .clk, .cycle, .tile_id, .req_valid, .req_core, .req_tid, .req_outcome,
    .resume(dc_resume), .hits(dc_hits), .misses(dc_misses), .writebacks(dc_writebacks)
  );
endmodule
