// noc.sv: a board's mailbox mesh (tinsel.md §3.1): MailboxMeshXLen x
// MailboxMeshYLen routers, one per mailbox, each with five ports (mailbox,
// west, east, south, north); dimension-ordered routing, Y first, then X.
//
// The model moves whole messages ({destination, flits - 1, C handle}; the
// contents stay in C, mbox_dpi.sv): a message enters a router's input FIFO,
// leaves it MeshHopLatency cycles later at the earliest, and then holds its output link
// for one cycle per flit. Holding the link for the whole message is
// Tinsel's route lock (messages are atomic, never interleaved on a link);
// FIFOs (MeshRouterInputMsgs messages each) and fixed routes keep each source-destination pair in order; a full
// FIFO or a busy mailbox back-pressures the link behind it. One module for
// the whole mesh so that an empty network costs one test per cycle (none of
// the outputs is rewritten: the block sleeps; `now` is the harness's cycle
// count).
//
// Messages for another board, for the host (host.valid) or with a routing
// key (isKey) go south (tinsel.md §3.1) and leave the mesh through the south
// rim (row 0): router x's south output is link Lx of the board router
// (board_router.sv), and its south input takes what the board router sends
// back into the mesh.
/* verilator lint_off BLKSEQ */
module noc
  import tinsel_pkg::*;
  import mbox_dpi::*;
#(parameter int unsigned NM = MailboxesPerBoard)
(
  input  logic clk,
  input  logic [63:0]                  cycle,  // the cycle being clocked (tsim_core)
  // This board's {Y, X}: mailbox-address bits LogMailboxesPerBoard and up.
  input  logic [31:0]                  board_xy,
  // From each mailbox (its out port).
  input  logic [NM-1:0]                inj_valid,
  output logic [NM-1:0]                inj_ready,
  input  logic [31:0]                  inj_dest [NM],
  input  logic [LogMaxFlitsPerMsg-1:0] inj_len [NM],
  input  logic [31:0]                  inj_msg [NM],
  // To each mailbox (its in port).
  output logic [NM-1:0]                ej_valid,
  input  logic [NM-1:0]                ej_ready,
  output logic [LogMaxFlitsPerMsg-1:0] ej_len [NM],
  output logic [31:0]                  ej_msg [NM],
  // The south rim, one link per column: out to the board router's L inputs
  // (held until ready, like ej_*), in from its L outputs.
  output logic [MailboxMeshXLen-1:0]   rim_out_valid,
  input  logic [MailboxMeshXLen-1:0]   rim_out_ready,
  output logic [31:0]                  rim_out_dest [MailboxMeshXLen],
  output logic [LogMaxFlitsPerMsg-1:0] rim_out_len [MailboxMeshXLen],
  output logic [31:0]                  rim_out_msg [MailboxMeshXLen],
  input  logic [MailboxMeshXLen-1:0]   rim_in_valid,
  output logic [MailboxMeshXLen-1:0]   rim_in_ready,
  input  logic [31:0]                  rim_in_dest [MailboxMeshXLen],
  input  logic [LogMaxFlitsPerMsg-1:0] rim_in_len [MailboxMeshXLen],
  input  logic [31:0]                  rim_in_msg [MailboxMeshXLen],
  // A message moved this cycle (the harness's activity signal) / the mesh holds none.
  output logic                         moved,
  output logic                         empty
);
  localparam int unsigned XL = MailboxMeshXLen;
  localparam int unsigned LF = LogMaxFlitsPerMsg;
  localparam int unsigned NP = 5;   // ports: 0 mailbox, 1 west, 2 east, 3 south, 4 north
  localparam int unsigned D  = MeshRouterInputMsgs;  // FIFO entries per input port
  localparam int unsigned LD = $clog2(D + 1);
  localparam int unsigned NF = NM * NP;
  localparam int unsigned LMB = LogMailboxesPerBoard;
  localparam int unsigned BB = MeshXBits + MeshYBits;   // board bits above the mailbox id

  initial if (NM != MailboxMeshXLen * MailboxMeshYLen) $fatal(1, "noc: MailboxesPerBoard != X * Y");

  // Input FIFOs, index f = router * NP + port, entry f * D + position.
  logic [31:0]   f_dest [NF * D];
  logic [LF-1:0] f_len [NF * D];
  logic [31:0]   f_msg [NF * D];
  logic [63:0]   f_ready_at [NF * D];  // earliest cycle the entry may leave
  logic [LD-1:0] f_head [NF], f_count [NF];
  logic [63:0]   link_free [NF];       // output link (router * NP + direction) free from this cycle
  logic [7:0]    r_count [NM];         // messages buffered in each router
  logic [2:0]    r_rr [NM];            // first input to consider (rotates: fairness)
  logic [31:0]   total;                // messages in the whole mesh
  logic [63:0]   now;
  logic [LF-1:0] ejl [NM];             // next values of ej_len, ej_msg
  logic [31:0]   ejm [NM];
  logic [XL-1:0] rimv;                 // next values of rim_out_*
  logic [31:0]   rimd [XL], rimm [XL];
  logic [LF-1:0] riml [XL];
  longint unsigned n_hops [NM], n_blocked [NM];
  int unsigned     f_max [NM];

  initial begin
    for (int i = 0; i < NF * D; i++) begin f_dest[i] = 0; f_len[i] = 0; f_msg[i] = 0; f_ready_at[i] = 0; end
    for (int f = 0; f < NF; f++) begin f_head[f] = 0; f_count[f] = 0; link_free[f] = 0; end
    for (int r = 0; r < NM; r++) begin r_count[r] = 0; ejl[r] = 0; ejm[r] = 0; r_rr[r] = 0; n_hops[r] = 0; n_blocked[r] = 0; f_max[r] = 0; end
    for (int x = 0; x < XL; x++) begin rimd[x] = 0; rimm[x] = 0; riml[x] = 0; end
    total = 0; now = 0; rimv = 0;
    ej_valid = 0; inj_ready = '1; rim_out_valid = 0; rim_in_ready = '1; moved = 0; empty = 1;
  end

  final for (int r = 0; r < NM; r++) tsim_noc_stats(board_xy, r, n_hops[r], n_blocked[r], f_max[r]);

  // Output direction at router r for destination mailbox dest: off the
  // board (another board, the host, a routing key) south; else Y first.
  // South from row 0 is the rim.
  function automatic int unsigned route(input int unsigned r, input logic [31:0] dest);
    int unsigned d = dest % NM, dy = d / XL, dx = d % XL, my = r / XL, mx = r % XL;
    logic [31:0] above = dest >> LMB;
    if (above != board_xy) route = 3;   // also: host.valid, isKey (bits above the board)
    else if (dy < my) route = 3;
    else if (dy > my) route = 4;
    else if (dx < mx) route = 1;
    else if (dx > mx) route = 2;
    else route = 0;
  endfunction

  // The input FIFO a message sent from router r in direction o enters.
  function automatic int unsigned next_fifo(input int unsigned r, input int unsigned o);
    unique case (o)
      1: next_fifo = (r - 1) * NP + 2;   // west: the neighbour's east input
      2: next_fifo = (r + 1) * NP + 1;
      3: next_fifo = (r - XL) * NP + 4;  // south: the neighbour's north input
      default: next_fifo = (r + XL) * NP + 3;
    endcase
  endfunction

  task automatic push(input int unsigned f, input logic [31:0] dest, input logic [LF-1:0] len,
                      input logic [31:0] msg);
    int unsigned e = f * D + (32'(f_head[f]) + 32'(f_count[f])) % D;
    f_dest[e] = dest; f_len[e] = len; f_msg[e] = msg; f_ready_at[e] = now + 64'(MeshHopLatency);
    f_count[f] = f_count[f] + 1'b1;
    r_count[f / NP] = r_count[f / NP] + 1'b1;
    if (32'(r_count[f / NP]) > f_max[f / NP]) f_max[f / NP] = 32'(r_count[f / NP]);
    total = total + 1;
  endtask

  logic any_moved;
  logic was_busy = 1;  // last cycle did something: its outputs settle this cycle

  always_ff @(posedge clk) begin : step
    logic [NM-1:0] ejv;
    logic busy;
    busy = inj_valid != 0 || rim_in_valid != 0 || total != 0 || ej_valid != 0 || rim_out_valid != 0;
    if (busy || was_busy) begin
    ejv = ej_valid;
    now = cycle + 1;  // it counted from 1 at the first edge
    was_busy = busy;
    any_moved = 0;
    // Handshakes decided by last cycle's registers.
    ejv &= ~ej_ready;
    rimv &= ~rim_out_ready;
    for (int r = 0; r < NM; r++)
      if (inj_valid[r] && inj_ready[r]) push(r * NP, inj_dest[r], inj_len[r], inj_msg[r]);
    for (int x = 0; x < XL; x++)
      if (rim_in_valid[x] && rim_in_ready[x]) push(x * NP + 3, rim_in_dest[x], rim_in_len[x], rim_in_msg[x]);

    if (total != 0)
      for (int r = 0; r < NM; r++)
        if (r_count[r] != 0) begin
          for (int k = 0; k < NP; k++) begin
            int unsigned i = (32'(r_rr[r]) + k) % NP, f = r * NP + i, e, o, l, g;
            if (f_count[f] != 0) begin
              e = f * D + 32'(f_head[f]);
              o = route(r, f_dest[e]);
              l = r * NP + o;
              if (f_ready_at[e] <= now && link_free[l] <= now) begin
                logic rim = o == 3 && r < XL;
                g = o == 0 || rim ? 0 : next_fifo(r, o);
                if (o == 0 ? !ejv[r] : rim ? !rimv[r] : 32'(f_count[g]) < D) begin
                  any_moved = 1;
                  if (o == 0) begin
                    ejv[r] = 1; ejl[r] = f_len[e]; ejm[r] = f_msg[e];
                  end else if (rim) begin
                    rimv[r] = 1; rimd[r] = f_dest[e]; riml[r] = f_len[e]; rimm[r] = f_msg[e];
                  end else push(g, f_dest[e], f_len[e], f_msg[e]);
                  link_free[l] = now + 64'(f_len[e]) + 1;
                  f_head[f] = LD'((32'(f_head[f]) + 1) % D);
                  f_count[f] = f_count[f] - 1'b1;
                  r_count[r] = r_count[r] - 1'b1;
                  total = total - 1;
                  n_hops[r]++;
                end else n_blocked[r]++;
              end
            end
          end
          r_rr[r] = 3'((32'(r_rr[r]) + 1) % NP);
        end
    ej_valid <= ejv;
    ej_len <= ejl;
    ej_msg <= ejm;
    rim_out_valid <= rimv;
    rim_out_dest <= rimd;
    rim_out_len <= riml;
    rim_out_msg <= rimm;
    moved <= any_moved;
    empty <= total == 0 && rimv == 0;
    for (int r = 0; r < NM; r++) inj_ready[r] <= 32'(f_count[r * NP]) < D;
    for (int x = 0; x < XL; x++) rim_in_ready[x] <= 32'(f_count[x * NP + 3]) < D;
    end
  end
endmodule
