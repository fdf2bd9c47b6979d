// board_router.sv: a board's programmable router (tinsel.md §3.3): inputs
// and outputs are the inter-board links N, S, E, W and the mailbox mesh's
// south-rim links L0..L(MailboxMeshXLen-1) (noc.sv). Messages are whole
// ({destination mailbox address, flits - 1, C handle}; contents stay in C),
// as in the mesh.
//
// Non-key messages are routed as Tinsel's router routes them, Y first:
// board Y below this board's: South, above: North; else host.valid: West
// (host.value 0) or East; else board X below: West, above: East; else back
// into the mesh through the L link of the destination mailbox's column.
//
// Timing: a message waits in its input's FIFO (BoardRouterInputMsgs
// messages) for BoardRouterLatency cycles after arriving from the mesh, or
// MacLatency after arriving over an inter-board or bridge link (the link's
// latency is charged where it ends); then it takes its output register when
// that is empty and holds the output link one cycle per flit (one flit per
// cycle); inputs are served in rotating order. FIFOs and fixed routes keep
// each source-destination pair in order. A full output back-pressures the
// inputs behind it; nothing is dropped.
//
// Keyed messages (isKey set) go from the head of their input's FIFO to that
// input's fetcher (progrouter.sv: the routing records in board DRAM, URM1,
// URM2, MRM, RR, IND). What a fetcher emits enters a FIFO of its own here
// (FIFOs NP..2NP-1), routed like any other message but to the port its
// record names: a link for RR (the message carries its new key), the mailbox
// mesh for URM/MRM. A fetcher per input and an output FIFO per fetcher mean
// a lookup waiting for a busy output never blocks another input's keys
// (tinsel.md §3.3).
/* verilator lint_off BLKSEQ */
module board_router
  import tinsel_pkg::*;
  import mbox_dpi::*;
#(parameter int unsigned NL = MailboxMeshXLen)
(
  input  logic clk,
  input  logic [63:0]                  cycle,      // the cycle being clocked (tsim_core)
  input  logic [31:0]                  board_xy,   // this board's {Y, X} (noc.sv)
  // Inputs: 0 N, 1 S, 2 E, 3 W (inter-board links), 4 + l: rim link Ll from the mesh.
  input  logic [4+NL-1:0]              in_valid,
  output logic [4+NL-1:0]              in_ready,
  input  logic [31:0]                  in_dest [4+NL],
  input  logic [LogMaxFlitsPerMsg-1:0] in_len [4+NL],
  input  logic [31:0]                  in_msg [4+NL],
  // Outputs, indexed the same way; a message stays until taken (valid && ready).
  output logic [4+NL-1:0]              out_valid,
  input  logic [4+NL-1:0]              out_ready,
  output logic [31:0]                  out_dest [4+NL],
  output logic [LogMaxFlitsPerMsg-1:0] out_len [4+NL],
  output logic [31:0]                  out_msg [4+NL],
  // A message moved this cycle / the router holds none.
  output logic                         moved,
  output logic                         empty
);
  localparam int unsigned NP  = 4 + NL;                  // ports
  localparam int unsigned LF  = LogMaxFlitsPerMsg;
  localparam int unsigned LMB = LogMailboxesPerBoard;
  localparam int unsigned D   = BoardRouterInputMsgs;
  localparam int unsigned LD  = $clog2(D + 1);
  localparam int unsigned PN = 0, PS = 1, PE = 2, PW = 3;
  localparam int unsigned NQ = 2 * NP;                   // FIFOs: inputs, then fetcher outputs
  localparam logic [2:0]  PortByDest = 3'd4;             // a fetcher output for the mesh (progrouter.sv)

  initial if (NL != MailboxMeshXLen) $fatal(1, "board_router: one rim link per mesh column");

  logic [31:0]   f_dest [NQ * D];
  logic [LF-1:0] f_len [NQ * D];
  logic [31:0]   f_msg [NQ * D];
  logic [63:0]   f_ready_at [NQ * D];
  logic [2:0]    f_port [NQ * D];      // fetcher outputs: the record's port
  logic [LD-1:0] f_head [NQ], f_count [NQ];
  logic [63:0]   link_free [NP];       // output link free from this cycle
  logic [NP-1:0] ov;                   // next values of out_*
  logic [31:0]   od [NP], om [NP];
  logic [LF-1:0] ol [NP];
  logic [31:0]   total, rr;
  logic [63:0]   now;
  logic          any_moved;
  // The fetchers (progrouter.sv): a keyed message per input in, messages out.
  logic [NP-1:0] kv, key_valid, key_ready, em_valid, em_ready;
  logic [LF-1:0] kl [NP], key_len [NP], em_len [NP];
  logic [31:0]   km [NP], key_msg [NP], em_dest [NP], em_msg [NP];
  logic [2:0]    em_port [NP];
  logic          pr_moved, pr_empty;

  progrouter #(.NF(NP)) fetchers (
    .clk, .board_xy, .key_valid, .key_ready, .key_len, .key_msg,
    .em_valid, .em_ready, .em_port, .em_dest, .em_len, .em_msg, .moved(pr_moved), .empty(pr_empty)
  );

  initial begin
    for (int i = 0; i < NQ * D; i++) begin f_dest[i] = 0; f_len[i] = 0; f_msg[i] = 0; f_ready_at[i] = 0; f_port[i] = 0; end
    for (int q = 0; q < NQ; q++) begin f_head[q] = 0; f_count[q] = 0; end
    for (int p = 0; p < NP; p++) begin
      link_free[p] = 0; od[p] = 0; om[p] = 0; ol[p] = 0; kl[p] = 0; km[p] = 0;
    end
    ov = 0; kv = 0; total = 0; rr = 0; now = 0;
    out_valid = 0; in_ready = '1; em_ready = '1; key_valid = 0; moved = 0; empty = 1;
  end

  // Fields of a destination mailbox address (tinsel.md §2.4), above the mailbox id.
  function automatic logic is_key(input logic [31:0] dest);
    is_key = dest[LMB + MeshXBits + MeshYBits + 2];
  endfunction

  // The output for a non-key message (see the header).
  function automatic int unsigned route(input logic [31:0] dest);
    logic [31:0] above = dest >> LMB;
    int unsigned bx = 32'(above) & ((1 << MeshXBits) - 1);
    int unsigned by = (32'(above) >> MeshXBits) & ((1 << MeshYBits) - 1);
    int unsigned mx = 32'(board_xy) & ((1 << MeshXBits) - 1);
    int unsigned my = (32'(board_xy) >> MeshXBits) & ((1 << MeshYBits) - 1);
    logic host_valid = above[MeshXBits + MeshYBits + 1], host_value = above[MeshXBits + MeshYBits];
    if (by < my) route = PS;
    else if (by > my) route = PN;
    else if (host_valid) route = host_value ? PE : PW;
    else if (bx < mx) route = PW;
    else if (bx > mx) route = PE;
    else route = 4 + (32'(dest) % NL);   // the mailbox's column (mailbox X is the low bits)
  endfunction

  // FIFO p: an input (a link's messages wait MacLatency, the mesh's
  // BoardRouterLatency) or a fetcher's output (ready at once, for PORT).
  // Taking a message in counts as movement: the harness sleeps waiting for
  // the host after a quiet stretch (sim/tsim_hostlink.c), and a message just
  // taken from the host link waits here MacLatency cycles before anything
  // else moves; uncounted, a host message arriving late in the stretch was
  // left here while tsim slept, and the host waited for its answer forever.
  task automatic push(input int unsigned p, input logic [31:0] dest, input logic [LF-1:0] len,
                      input logic [31:0] msg, input logic [2:0] port);
    int unsigned e = p * D + (32'(f_head[p]) + 32'(f_count[p])) % D;
    f_dest[e] = dest; f_len[e] = len; f_msg[e] = msg; f_port[e] = port;
    f_ready_at[e] = now + (p < 4 ? 64'(MacLatency) : p < NP ? 64'(BoardRouterLatency) : 0);
    f_count[p] = f_count[p] + 1'b1;
    total = total + 1;
    any_moved = 1;
  endtask

  task automatic pop(input int unsigned p);
    f_head[p] = LD'((32'(f_head[p]) + 1) % D);
    f_count[p] = f_count[p] - 1'b1;
    total = total - 1;
    any_moved = 1;
  endtask

  // Asleep while nothing is queued, offered or emitted and nothing happened
  // last cycle (whose outputs settle now); `now` is the harness's cycle count.
  logic was_busy = 1;
  always_ff @(posedge clk) begin : step
    logic busy;
    busy = in_valid != 0 || em_valid != 0 || total != 0 || ov != 0 || kv != 0 || pr_moved || !pr_empty;
    if (busy || was_busy) begin
    now = cycle + 1;  // it counted from 1 at the first edge
    was_busy = busy;
    any_moved = 0;
    // Handshakes decided by last cycle's registers.
    ov &= ~out_ready;
    kv &= ~key_ready;
    for (int p = 0; p < NP; p++) begin
      if (in_valid[p] && in_ready[p]) push(p, in_dest[p], in_len[p], in_msg[p], 0);
      if (em_valid[p] && em_ready[p]) push(NP + p, em_dest[p], em_len[p], em_msg[p], em_port[p]);
    end

    if (total != 0) begin
      for (int k = 0; k < NQ; k++) begin
        int unsigned p = (rr + k) % NQ, e, o;
        if (f_count[p] != 0) begin
          e = p * D + 32'(f_head[p]);
          if (f_ready_at[e] <= now) begin
            if (p < NP && is_key(f_dest[e])) begin
              // A keyed input message: to this input's fetcher when it is free.
              if (!kv[p]) begin
                kv[p] = 1; kl[p] = f_len[e]; km[p] = f_msg[e];
                pop(p);
              end
            end else begin
              o = p < NP || f_port[e] == PortByDest ? route(f_dest[e]) : 32'(f_port[e]);
              if (!ov[o] && link_free[o] <= now) begin
                ov[o] = 1; od[o] = f_dest[e]; ol[o] = f_len[e]; om[o] = f_msg[e];
                link_free[o] = now + 64'(f_len[e]) + 1;
                pop(p);
              end
            end
          end
        end
      end
      rr = (rr + 1) % NQ;
    end
    out_valid <= ov;
    out_dest <= od;
    out_len <= ol;
    out_msg <= om;
    key_valid <= kv;
    key_len <= kl;
    key_msg <= km;
    moved <= any_moved || pr_moved;
    empty <= total == 0 && ov == 0 && kv == 0 && pr_empty;
    for (int p = 0; p < NP; p++) begin
      in_ready[p] <= 32'(f_count[p]) < D;
      em_ready[p] <= 32'(f_count[NP + p]) < D;
    end
    end
  end
endmodule
