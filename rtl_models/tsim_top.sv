// tsim_top.sv: one board: MailboxesPerBoard tiles (the configuration's
// CoresPerBoard cores), their mailbox mesh (noc.sv), the board router
// (board_router.sv) with the board's four inter-board links as ports, and
// the board's share of idle detection. The harness drives the clock and
// the links, tells the board where it is, watches `active` and combines
// the idle votes of all boards.
module tsim_top
  import tinsel_pkg::*;
(
  input  logic clk,
  // The cycle being clocked, counted by the harness (0 at the first edge):
  // the time of the blocks that sleep through idle cycles (README.md).
  input  logic [63:0] cycle,
  // The board's index in the run (0 .. boards-1: its cores, tiles, memories
  // and messages in C) and its mesh address {Y, X} (HartId, routing).
  input  logic [31:0] board,
  input  logic [31:0] board_xy,
  // Some tile retired an instruction or moved a message, or a message moved
  // in the mesh or the board router, this cycle: the harness's watchdog
  // (sim/tsim_main.cpp) counts the cycles without.
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
  input  logic idle_all_voted,
  // Inter-board links, direction d = 0 N, 1 S, 2 E, 3 W, each field of d at
  // [W*d +: W] (W = 32, or LogMaxFlitsPerMsg for len). A message is
  // {destination mailbox address, flits - 1, C handle (sim/tsim_mbox.c)};
  // it moves on a clock edge where valid and ready are both high. The bridge
  // to the host is board 0's West link (sim/tsim_hostlink.c).
  input  logic [3:0]                     link_in_valid,
  output logic [3:0]                     link_in_ready,
  input  logic [4*32-1:0]                link_in_dest,
  input  logic [4*LogMaxFlitsPerMsg-1:0] link_in_len,
  input  logic [4*32-1:0]                link_in_msg,
  output logic [3:0]                     link_out_valid,
  input  logic [3:0]                     link_out_ready,
  output logic [4*32-1:0]                link_out_dest,
  output logic [4*LogMaxFlitsPerMsg-1:0] link_out_len,
  output logic [4*32-1:0]                link_out_msg
);
  localparam int unsigned NM = MailboxesPerBoard;
  localparam int unsigned LF = LogMaxFlitsPerMsg;

  localparam int unsigned XL = MailboxMeshXLen;
  localparam int unsigned NP = 4 + XL;   // board router ports: N, S, E, W, rim links

  logic [NM-1:0] tile_active;
  logic          noc_moved, noc_empty, br_moved, br_empty;
  assign active = tile_active != 0 || noc_moved || br_moved;
  logic [NM-1:0] out_valid, out_ready, in_valid, in_ready, idle_all, vote_all;
  logic [31:0]   out_dest [NM], out_msg [NM], in_msg [NM], inflight [NM];
  logic [LF-1:0] out_len [NM], in_len [NM];
  logic [31:0]   idle_result;

  for (genvar t = 0; t < NM; t++) begin : tile
    tsim_tile u (
      .clk, .cycle, .tile_id(board * NM + t), .board_xy,
      .net_out_valid(out_valid[t]), .net_out_ready(out_ready[t]), .net_out_dest(out_dest[t]),
      .net_out_len(out_len[t]), .net_out_msg(out_msg[t]),
      .net_in_valid(in_valid[t]), .net_in_ready(in_ready[t]), .net_in_len(in_len[t]), .net_in_msg(in_msg[t]),
      .idle_all(idle_all[t]), .vote_all(vote_all[t]), .inflight(inflight[t]), .idle_release, .idle_result,
      .active(tile_active[t])
    );
  end

  // Board router ports: 0..3 the links, 4 + x the rim link of mesh column x.
  logic [NP-1:0] br_in_valid, br_in_ready, br_out_valid, br_out_ready;
  logic [31:0]   br_in_dest [NP], br_in_msg [NP], br_out_dest [NP], br_out_msg [NP];
  logic [LF-1:0] br_in_len [NP], br_out_len [NP];
  logic [XL-1:0] rim_out_valid, rim_out_ready, rim_in_valid, rim_in_ready;
  logic [31:0]   rim_out_dest [XL], rim_out_msg [XL], rim_in_dest [XL], rim_in_msg [XL];
  logic [LF-1:0] rim_out_len [XL], rim_in_len [XL];

  noc #(.NM(NM)) mesh (
    .clk, .cycle, .board_xy, .inj_valid(out_valid), .inj_ready(out_ready), .inj_dest(out_dest), .inj_len(out_len),
    .inj_msg(out_msg), .ej_valid(in_valid), .ej_ready(in_ready), .ej_len(in_len), .ej_msg(in_msg),
    .rim_out_valid, .rim_out_ready, .rim_out_dest, .rim_out_len, .rim_out_msg,
    .rim_in_valid, .rim_in_ready, .rim_in_dest, .rim_in_len, .rim_in_msg,
    .moved(noc_moved), .empty(noc_empty)
  );

  board_router #(.NL(XL)) router (
    .clk, .cycle, .board_xy, .in_valid(br_in_valid), .in_ready(br_in_ready), .in_dest(br_in_dest), .in_len(br_in_len),
    .in_msg(br_in_msg), .out_valid(br_out_valid), .out_ready(br_out_ready), .out_dest(br_out_dest),
    .out_len(br_out_len), .out_msg(br_out_msg), .moved(br_moved), .empty(br_empty)
  );

  always_comb begin
    for (int d = 0; d < 4; d++) begin
      br_in_valid[d] = link_in_valid[d];
      br_in_dest[d] = link_in_dest[32*d +: 32];
      br_in_len[d] = link_in_len[LF*d +: LF];
      br_in_msg[d] = link_in_msg[32*d +: 32];
      link_in_ready[d] = br_in_ready[d];
      link_out_valid[d] = br_out_valid[d];
      link_out_dest[32*d +: 32] = br_out_dest[d];
      link_out_len[LF*d +: LF] = br_out_len[d];
      link_out_msg[32*d +: 32] = br_out_msg[d];
      br_out_ready[d] = link_out_ready[d];
    end
    for (int x = 0; x < XL; x++) begin
      br_in_valid[4 + x] = rim_out_valid[x];
      br_in_dest[4 + x] = rim_out_dest[x];
      br_in_len[4 + x] = rim_out_len[x];
      br_in_msg[4 + x] = rim_out_msg[x];
      rim_out_ready[x] = br_in_ready[4 + x];
      rim_in_valid[x] = br_out_valid[4 + x];
      rim_in_dest[x] = br_out_dest[4 + x];
      rim_in_len[x] = br_out_len[4 + x];
      rim_in_msg[x] = br_out_msg[4 + x];
      br_out_ready[4 + x] = rim_in_ready[x];
    end
  end

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
