// progrouter.sv: the routing-key lookup of a board's programmable router
// (tinsel.md §3.3), one fetcher per router input so that a lookup waiting
// for a full output never blocks another input's keys (Tinsel's
// FetchersPerProgRouter, the deadlock §3.3 mentions).
//
// A fetcher takes one keyed message {flits - 1, C handle; the key is the
// low word of the handle's mask}, reads the key's routing beats from the
// board's DRAM and emits the messages its records name, one at a time, each
// when its beat has arrived (DRAMLatency after the fetch starts, then a beat
// per cycle; an IND record fetches its key when its beat arrives). The
// records are decoded in C (sim/tsim_progrouter.c: URM1, URM2, MRM, RR,
// IND; payload rewrites happen in the message buffer, so contents never
// travel through the model); this module keeps the timing and the
// handshakes. An emitted message names its output port: 0..3 the link
// N, S, E, W (a RR record: the destination is a routing key again), 4 the
// mailbox mesh (URM/MRM: the destination mailbox on this board).
package progrouter_dpi;
  // Start fetcher F's lookup of keyed message MSG on the board at BOARD_XY: 0 and the number
  // of messages it makes (the handle MSG is consumed), or non-zero after
  // halting the run on a malformed table.
  import "DPI-C" function int tsim_pr_lookup(input int unsigned board_xy, input int unsigned f,
                                             input int unsigned msg, output int unsigned count);
  // The K-th message of fetcher F's lookup: output port, destination, handle,
  // and the cycle (after the lookup started) its beat arrives.
  import "DPI-C" function void tsim_pr_out(input int unsigned board_xy, input int unsigned f, input int unsigned k,
                                           output int unsigned port, output int unsigned dest,
                                           output int unsigned msg, output int unsigned at);
  // A message left the router (CSR ProgRouterSent).
  import "DPI-C" function void tsim_pr_sent(input int unsigned board_xy);
endpackage

/* verilator lint_off BLKSEQ */
module progrouter
  import tinsel_pkg::*;
  import progrouter_dpi::*;
#(parameter int unsigned NF = 4 + MailboxMeshXLen)
(
  input  logic clk,
  input  logic [31:0]                  board_xy,   // the board's {Y, X} (sim/tsim_boards.h maps it to the run's board)
  // Keyed messages, one input per fetcher; taken on an edge where valid and ready are high.
  input  logic [NF-1:0]                key_valid,
  output logic [NF-1:0]                key_ready,
  input  logic [LogMaxFlitsPerMsg-1:0] key_len [NF],
  input  logic [31:0]                  key_msg [NF],
  // What each fetcher emits, held until taken (valid and ready on an edge).
  output logic [NF-1:0]                em_valid,
  input  logic [NF-1:0]                em_ready,
  output logic [2:0]                   em_port [NF],
  output logic [31:0]                  em_dest [NF],
  output logic [LogMaxFlitsPerMsg-1:0] em_len [NF],
  output logic [31:0]                  em_msg [NF],
  // A fetcher did something this cycle (the watchdog) / all are idle.
  output logic                         moved,
  output logic                         empty
);
  localparam int unsigned LF = LogMaxFlitsPerMsg;

  logic [NF-1:0] busy;                 // a lookup's messages are not all emitted
  logic [31:0]   n_out [NF], k_out [NF];
  logic [63:0]   start [NF];
  logic [LF-1:0] len [NF];
  logic [NF-1:0] ev;                   // next value of em_valid
  logic [63:0]   now;

  initial begin
    busy = 0; ev = 0; now = 0;
    for (int f = 0; f < NF; f++) begin n_out[f] = 0; k_out[f] = 0; start[f] = 0; len[f] = 0; end
    key_ready = '1; em_valid = 0; moved = 0; empty = 1;
  end

  always_ff @(posedge clk) begin : step
    logic any;
    any = 0;
    now = now + 1;
    ev &= ~em_ready;
    if (key_valid != 0 || busy != 0)
      for (int f = 0; f < NF; f++) begin
        if (key_valid[f] && key_ready[f]) begin
          int unsigned n;
          if (tsim_pr_lookup(board_xy, f, key_msg[f], n) == 0) begin
            busy[f] = n != 0; n_out[f] = n; k_out[f] = 0; start[f] = now; len[f] = key_len[f];
          end
          any = 1;
        end
        if (busy[f] && !ev[f]) begin
          int unsigned port, dest, msg, at;
          tsim_pr_out(board_xy, f, k_out[f], port, dest, msg, at);
          if (start[f] + 64'(at) <= now) begin
            ev[f] = 1;
            em_port[f] <= 3'(port); em_dest[f] <= dest; em_len[f] <= len[f]; em_msg[f] <= msg;
            tsim_pr_sent(board_xy);
            k_out[f] = k_out[f] + 1;
            if (k_out[f] == n_out[f]) busy[f] = 0;
            any = 1;
          end
        end
      end
    em_valid <= ev;
    key_ready <= ~busy;
    moved <= any;
    empty <= busy == 0 && ev == 0;
  end
endmodule
