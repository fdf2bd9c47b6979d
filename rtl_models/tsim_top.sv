// tsim_top.sv: one board: MailboxesPerBoard tiles (the configuration's
// CoresPerBoard cores), their mailbox mesh (noc.sv) and the board's share of
// idle detection. The harness drives the clock, tells the board where it
// is, watches `active` and combines the idle votes of all boards.
module tsim_top
  import tinsel_pkg::*;
(
  input  logic clk,
  // The board's index in the run (0 .. boards-1: its cores, tiles, memories
  // and messages in C) and its mesh address {Y, X} (HartId, routing).
  input  logic [31:0] board,
  input  logic [31:0] board_xy,
  // Some tile retired an instruction or moved a message this cycle: the
  // harness's watchdog (sim/tsim_main.cpp) counts the cycles without.
  output logic active,
  // Idle detection (tinsel.md §6.4), ANDed over the boards by the harness:
  // every thread of this board is in tinselIdle; all of them voted true;
  // messages sent here minus messages freed here (a message counts until
  // freed, possibly on another board). The harness raises idle_release for
  // one cycle when every board is idle and the counts sum to zero;
  // idle_all_voted says whether every thread of every board voted true.
  output logic idle_local,
  output logic vote_local,
  output logic [31:0] inflight_local,
  input  logic idle_release,
  input  logic idle_all_voted
);
  localparam int unsigned NM = MailboxesPerBoard;
  localparam int unsigned LF = LogMaxFlitsPerMsg;

  logic [NM-1:0] tile_active;
  assign active = tile_active != 0;
  logic [NM-1:0] out_valid, out_ready, in_valid, in_ready, idle_all, vote_all;
  logic [31:0]   out_dest [NM], out_msg [NM], in_msg [NM], inflight [NM];
  logic [LF-1:0] out_len [NM], in_len [NM];
  logic [31:0]   idle_result;

  for (genvar t = 0; t < NM; t++) begin : tile
    tsim_tile u (
      .clk, .tile_id(board * NM + t), .board_xy,
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

  // This board's votes; the mailboxes wake their idle threads the cycle
  // the harness raises idle_release.
  always_comb begin
    logic signed [31:0] sum = 0;
    for (int t = 0; t < NM; t++) sum += $signed(inflight[t]);
    inflight_local = sum;
    idle_local = idle_all == '1;
    vote_local = vote_all == '1;
    idle_result = idle_all_voted ? 2 : 1;
  end
endmodule
