// tsim_top.sv: one board: MailboxesPerBoard tiles (the configuration's
// CoresPerBoard cores), their mailbox mesh (noc.sv) and the board's idle
// detector. The harness drives the clock and watches `active`.
module tsim_top
  import tinsel_pkg::*;
(
  input  logic clk,
  // Some tile retired an instruction or moved a message this cycle: the
  // harness's watchdog (sim/tsim_main.cpp) counts the cycles without.
  output logic active
);
  localparam int unsigned NM = MailboxesPerBoard;
  localparam int unsigned LF = LogMaxFlitsPerMsg;

  logic [NM-1:0] tile_active;
  assign active = tile_active != 0;
  logic [NM-1:0] out_valid, out_ready, in_valid, in_ready, idle_all, vote_all;
  logic [31:0]   out_dest [NM], out_msg [NM], in_msg [NM], inflight [NM];
  logic [LF-1:0] out_len [NM], in_len [NM];
  logic          idle_release;
  logic [31:0]   idle_result;

  for (genvar t = 0; t < NM; t++) begin : tile
    tsim_tile u (
      .clk, .tile_id(t),
      .net_out_valid(out_valid[t]), .net_out_ready(out_ready[t]), .net_out_dest(out_dest[t]),
      .net_out_len(out_len[t]), .net_out_msg(out_msg[t]),
      .net_in_valid(in_valid[t]), .net_in_ready(in_ready[t]), .net_in_len(in_len[t]), .net_in_msg(in_msg[t]),
      .idle_all(idle_all[t]), .vote_all(vote_all[t]), .inflight(inflight[t]), .idle_release, .idle_result,
      .active(tile_active[t])
    );
  end

  noc #(.NM(NM)) mesh (
    .clk, .inj_valid(out_valid), .inj_ready(out_ready), .inj_dest(out_dest), .inj_len(out_len),
    .inj_msg(out_msg), .ej_valid(in_valid), .ej_ready(in_ready), .ej_len(in_len), .ej_msg(in_msg)
  );

  // Idle detection (tinsel.md §6.4) for one board: every thread is in
  // tinselIdle and every message sent has been freed (a message counts
  // until freed, so one in the network or in a queue keeps the board busy).
  // The mailboxes wake their idle threads the next cycle.
  always_comb begin
    logic signed [31:0] sum = 0;
    for (int t = 0; t < NM; t++) sum += $signed(inflight[t]);
    idle_release = idle_all == '1 && sum == 0;
    idle_result = vote_all == '1 ? 2 : 1;
  end
endmodule
