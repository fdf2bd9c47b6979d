// mbox.sv: a tile's mailbox (tinsel.md §2): the mailbox CSRs and the Send
// instruction for the tile's CoresPerMailbox cores, one message slot per
// thread for sending, a receive pool of reference-counted slots (multicast
// stores one copy), a pointer queue per thread, WaitUntil wake-ups and the
// tile's share of idle detection.
//
// Slots 0..ThreadsPerMailbox-1 of the scratchpad are the send slots; the rest
// form the receive pool (without slots ThreadsPerMailbox..2*ThreadsPerMailbox-1
// when the DebugLink reserved the extra send slot: tsim_mbox_pool_config). Contents live in the C store (mbox_dpi.sv); this
// module keeps the bookkeeping and the timing: one request per cycle from
// the cores (the tile's arbiter grants one), one flit per cycle out and in,
// and back-pressure when the pool or a destination queue is full: a message
// waits in the receive register (and the network behind it) and is never
// dropped.
//
// State touched only by this module's clocked block is updated with blocking
// assignments (cheaper in Verilator, as in tsim_core.sv); per-cycle work is a
// few mask tests unless something happens, and none at all while the mailbox
// sleeps (no request, nothing to send, receive or answer, and nothing
// happened last cycle whose outputs must settle); `now` comes from the
// harness's cycle count.
/* verilator lint_off BLKSEQ */
module mbox
  import tinsel_pkg::*;
  import mbox_dpi::*;
#(parameter int unsigned NC = CoresPerMailbox)
(
  input  logic clk,
  input  logic [63:0] cycle,  // the cycle being clocked (tsim_core)
  input  logic [31:0] tile_id,
  // Core requests (rtl_models/README.md, "The core ↔ mailbox interface");
  // at most one valid per cycle.
  input  logic [NC-1:0]                req_valid,
  input  logic [LogThreadsPerCore-1:0] req_tid [NC],
  input  logic [NC-1:0]                req_send,
  input  logic [11:0]                  req_csr [NC],
  input  logic [31:0]                  req_wdata [NC],
  input  logic [31:0]                  req_wdata2 [NC],
  input  logic [NC-1:0]                req_wants_resp,
  output logic [NC-1:0]                resp_valid,
  output logic [LogThreadsPerCore-1:0] resp_tid [NC],
  output logic [31:0]                  resp_data [NC],
  // Network port: a message is {destination mailbox, flits - 1, C handle};
  // a transfer happens on a clock edge where valid and ready are both high.
  output logic                         out_valid,
  input  logic                         out_ready,
  output logic [31:0]                  out_dest,
  output logic [LogMaxFlitsPerMsg-1:0] out_len,
  output logic [31:0]                  out_msg,
  input  logic                         in_valid,
  output logic                         in_ready,
  input  logic [LogMaxFlitsPerMsg-1:0] in_len,
  input  logic [31:0]                  in_msg,
  // Idle detection (tsim_top): every thread is in tinselIdle; all of them
  // voted true; messages sent (one per destination thread) minus freed.
  output logic                         idle_all,
  output logic                         vote_all,
  output logic [31:0]                  inflight,
  input  logic                         idle_release,  // one cycle: wake every idle thread
  input  logic [31:0]                  idle_result    // 1 idle, 2 idle and all voted true
);
  // Inlined into the tile (no no_inline_module): as a separate class its
  // port copies made Verilator split every core's clocked block and keep
  // the core's delayed-assignment temporaries in memory, ~30% slower cores.
  localparam int unsigned T   = ThreadsPerCore;
  localparam int unsigned LT  = LogThreadsPerCore;
  localparam int unsigned TM  = NC * T;                    // threads of this mailbox
  localparam int unsigned LTM = $clog2(TM);
  localparam int unsigned NS  = MsgsPerMailbox;
  localparam int unsigned LS  = LogMsgsPerMailbox;
  localparam int unsigned LQ  = LogMsgPtrQueueSize;
  localparam int unsigned QN  = 2 ** LQ;
  localparam int unsigned LF  = LogMaxFlitsPerMsg;
  localparam int unsigned LMB = LogMailboxesPerBoard;

  initial if (TM != ThreadsPerMailbox || TM > 64 || NS <= TM)
    $fatal(1, "mbox: needs ThreadsPerMailbox (at most 64) threads and more slots than threads");

  // ---------------------------------------------------------------- state
  // Per thread: the persistent send CSRs and the pending message's mask.
  logic [31:0]   s_dest [TM];
  logic [LS-1:0] s_slot [TM];
  logic [LF-1:0] s_len [TM];
  logic [31:0]   s_mhi [TM], s_mlo [TM];
  logic [TM-1:0] send_pend;                // a message waits in the send slot (CanSend = 0)
  // Receive pool: a stack of free slots and a reference count per slot.
  logic [LS-1:0] free_stack [NS];
  logic [LS:0]   free_top;                 // free slots on the stack
  logic [6:0]    refc [NS];
  // The pool's size: NS - TM, or NS - 2 * TM once the board's first
  // DebugLink QueryIn reserved the extra send slot (slot TM + t of thread
  // t, tinselSendSlotExtra); decided at the first placement into an empty
  // pool after that QueryIn (on Tinsel the pool waits for it).
  logic          pool_fixed;
  int unsigned   pool_n, pool_cfg;
  // Per-thread pointer queues: entry {thread, position} holds a slot.
  logic [LS-1:0] rq [TM * QN];
  logic [LQ-1:0] rq_head [TM];
  logic [LQ:0]   rq_count [TM];
  logic [TM-1:0] q_full, q_nonempty;
  // WaitUntil: what each sleeping thread waits for; its answer when woken.
  logic [TM-1:0] wait_send, wait_recv, wait_idle, vote;
  logic [TM-1:0] resp_pend;
  logic [31:0]   resp_val [TM];
  // Transmit and receive: the next free cycle of each direction; the
  // message taken from the network and waiting for slot and queues.
  logic [63:0]   now, tx_free_at, rx_free_at;
  logic          delay_on, tx_delayed;     // --delay-seed; the next transmission's delay is drawn
  logic [LTM-1:0] tx_last;                 // round-robin position
  logic          was_busy;                 // last cycle did something
  logic          rx_have;
  logic [31:0]   rx_msg;
  logic [LF-1:0] rx_len;
  logic [63:0]   rx_mask;
  logic signed [31:0] n_inflight;
  // Statistics.
  longint unsigned n_sent, n_recv, n_deliv, n_stall;
  int unsigned q_max, pool_max;

  initial begin
    for (int t = 0; t < TM; t++) begin
      s_dest[t] = 0; s_slot[t] = 0; s_len[t] = 0; s_mhi[t] = 0; s_mlo[t] = 0;
      rq_head[t] = 0; rq_count[t] = 0; resp_val[t] = 0;
    end
    // Pool slots TM..NS-1, the lowest on top.
    for (int s = 0; s < NS - TM; s++) free_stack[s] = LS'(NS - 1 - s);
    for (int s = 0; s < NS; s++) refc[s] = 0;
    for (int i = 0; i < TM * QN; i++) rq[i] = 0;
    free_top = (LS+1)'(NS - TM);
    pool_fixed = 0; pool_n = NS - TM; pool_cfg = 0;
    send_pend = 0; q_full = 0; q_nonempty = 0;
    wait_send = 0; wait_recv = 0; wait_idle = 0; vote = 0; resp_pend = 0;
    now = 0; tx_free_at = 0; rx_free_at = 0; tx_last = '1;
    delay_on = tsim_mbox_delay_on(); tx_delayed = 0;
    was_busy = 1; rx_have = 0; rx_msg = 0; rx_len = 0; rx_mask = 0; n_inflight = 0;
    n_sent = 0; n_recv = 0; n_deliv = 0; n_stall = 0; q_max = 0; pool_max = 0;
    resp_valid = 0; out_valid = 0; in_ready = 1;
    idle_all = 0; vote_all = 0; inflight = 0;
  end

  final begin
    tsim_mbox_stats(tile_id, n_sent, n_recv, n_deliv, q_max, pool_max, n_stall, n_inflight,
                    32'($countones(wait_idle)), 32'($countones(wait_send | wait_recv | wait_idle)));
    for (int t = 0; t < TM; t++)
      tsim_mbox_thread_wait(tile_id, 32'(t), wait_send[t], wait_recv[t], wait_idle[t]);
  end

  // The first set bit of m after position `after`, cyclically ({found, index}).
  function automatic logic [LTM:0] pick(input logic [TM-1:0] m, input logic [LTM-1:0] after);
    logic [2*TM-1:0] twice = {m, m} >> (32'(after) + 1);
    logic [LTM:0] r = 0;
    for (int i = TM - 1; i >= 0; i--)
      if (twice[i]) r = {1'b1, LTM'(32'(after) + 1 + i)};
    pick = r;
  endfunction

  // Wake threads WHO with answer V (WaitUntil, or a deferred read).
  task automatic wake(input logic [TM-1:0] who, input logic [31:0] v);
    resp_pend |= who;
    for (int t = 0; t < TM; t++) if (who[t]) resp_val[t] = v;
    wait_send &= ~who; wait_recv &= ~who; wait_idle &= ~who; vote &= ~who;
  endtask

  always_ff @(posedge clk) begin : step
    logic [LTM-1:0] m, p;
    logic [LTM:0]   pk;
    logic [11:0]    csr;
    logic [31:0]    wd, wd2, rv;
    logic [LS-1:0]  slot;
    logic [TM-1:0]  bit_m, dests;
    logic           answer, busy;

    busy = req_valid != 0 || send_pend != 0 || out_valid || rx_have || (in_valid && in_ready)
           || resp_pend != 0 || (idle_release && wait_idle != 0);
    if (busy || was_busy) begin
    now = cycle + 1;  // it counted from 1 at the first edge
    was_busy = busy;
    resp_valid <= 0;

    // ---- one core request
    for (int c = 0; c < NC; c++)
      if (req_valid[c]) begin
        m = LTM'(c * T) | LTM'(req_tid[c]);
        bit_m = TM'(1) << m;
        csr = req_csr[c]; wd = req_wdata[c]; wd2 = req_wdata2[c];
        answer = req_wants_resp[c];
        rv = 0;
        if (req_send[c]) begin
          if (send_pend[m]) tsim_mbox_error(tile_id, 32'(m), ErrSendBusy, 0);
          else begin
            send_pend |= bit_m;
            s_mhi[m] = wd; s_mlo[m] = wd2;
            // A keyed message counts once until the board router replaces it
            // by its destinations (progrouter.sv); otherwise once per thread.
            n_inflight += (s_dest[m] & MailboxRoutingKey) != 0 ? 1 : 32'($countones({wd, wd2}));
            n_sent++;
          end
        end else begin
          case (csr)
            CsrSendLen:  s_len[m] = wd[LF-1:0];
            CsrSendPtr:  s_slot[m] = wd[LS+LogBytesPerMsg-1:LogBytesPerMsg];
            CsrSendDest: s_dest[m] = wd;
            CsrCanSend:  rv = {31'b0, !send_pend[m]};
            CsrCanRecv:  rv = {31'b0, q_nonempty[m]};
            CsrRecv: begin
              if (!q_nonempty[m]) tsim_mbox_error(tile_id, 32'(m), ErrRecvEmpty, 0);
              else begin
                rv = 32'(rq[{m, rq_head[m]}]) << LogBytesPerMsg;  // in the scratchpad alias
                rq_head[m] = rq_head[m] + 1'b1;
                rq_count[m] = rq_count[m] - 1'b1;
                q_full &= ~bit_m;
                if (rq_count[m] == 0) q_nonempty &= ~bit_m;
              end
            end
            CsrFree: begin
              slot = wd[LS+LogBytesPerMsg-1:LogBytesPerMsg];
              if (32'(slot) < TM || refc[slot] == 0) tsim_mbox_error(tile_id, 32'(m), ErrFreeSlot, wd);
              else begin
                refc[slot] = refc[slot] - 1'b1;
                if (refc[slot] == 0) begin
                  free_stack[free_top[LS-1:0]] = slot;
                  free_top = free_top + 1'b1;
                end
                n_inflight -= 1;
              end
            end
            CsrWaitUntil: begin
              if (wd[3:0] == 0) tsim_mbox_error(tile_id, 32'(m), ErrWaitNone, wd);
              else if ((wd[0] && !send_pend[m]) || (wd[1] && q_nonempty[m])) rv = 0;  // 0: no idle result
              else begin
                answer = 0;  // asleep: answered by wake()
                if (wd[0]) wait_send |= bit_m;
                if (wd[1]) wait_recv |= bit_m;
                if (wd[2] || wd[3]) wait_idle |= bit_m;
                if (wd[3]) vote |= bit_m;
              end
            end
            CsrFromUart: rv = tsim_uart_get(tile_id, 32'(m));  // DebugLink StdIn: bit 8 valid, 7:0 byte
            default: ;
          endcase
          if (answer) begin resp_pend |= bit_m; resp_val[m] = rv; end
        end
      end

    // ---- transmit: one pending message at a time, one flit per cycle
    if (out_valid && out_ready) out_valid <= 0;
    // A random delay holds the next transmission (messages leave in order).
    if (delay_on && send_pend != 0 && !tx_delayed) begin
      tx_free_at = (now > tx_free_at ? now : tx_free_at) + 64'(tsim_mbox_delay(tile_id));
      tx_delayed = 1;
    end
    if (send_pend != 0 && (!out_valid || out_ready) && now >= tx_free_at) begin
      pk = pick(send_pend, tx_last);
      p = pk[LTM-1:0];
      tx_last = p;
      // Other boards, the host and routing keys go out through the NoC's
      // south rim and the board router; the custom accelerator is not modelled.
      if (s_dest[p][LMB + MeshXBits + MeshYBits + 3]) tsim_mbox_error(tile_id, 32'(p), ErrDest, s_dest[p]);
      out_valid <= 1;
      out_dest <= s_dest[p];
      out_len <= s_len[p];
      out_msg <= tsim_mbox_capture(tile_id, 32'(p), 32'(s_slot[p]), 32'(s_len[p]) + 1, s_mhi[p], s_mlo[p]);
      tx_free_at = now + 64'(s_len[p]) + 1;
      tx_delayed = 0;
      send_pend &= ~(TM'(1) << p);
      if (wait_send[p]) wake(TM'(1) << p, 0);
    end

    // ---- receive: take a message from the network into the receive register ...
    if (in_valid && in_ready) begin
      rx_have = 1; rx_msg = in_msg; rx_len = in_len;
      rx_mask = tsim_mbox_mask(in_msg);
    end
    // ... and place it when a slot and every destination queue have room.
    if (rx_have && now >= rx_free_at) begin
      dests = rx_mask[TM-1:0];
      if (dests != 0 && !pool_fixed && 32'(free_top) == pool_n) begin
        pool_cfg = tsim_mbox_pool_config(tile_id);
        if (pool_cfg == 2 && NS > 2 * TM) begin
          for (int s = 0; s < NS - 2 * TM; s++) free_stack[s] = LS'(NS - 1 - s);
          pool_n = NS - 2 * TM;
          free_top = (LS+1)'(pool_n);
        end
        if (pool_cfg != 0) pool_fixed = 1;
      end
      if (dests == 0) begin
        tsim_mbox_deliver(rx_msg, tile_id, 0);
        rx_have = 0; n_recv++;
      end else if (free_top != 0 && (dests & q_full) == 0) begin
        free_top = free_top - 1'b1;
        slot = free_stack[free_top[LS-1:0]];
        refc[slot] = 7'($countones(dests));
        tsim_mbox_deliver(rx_msg, tile_id, 32'(slot));
        for (int t = 0; t < TM; t++)
          if (dests[t]) begin
            rq[{LTM'(t), LQ'(32'(rq_head[t]) + 32'(rq_count[t]))}] = slot;
            rq_count[t] = rq_count[t] + 1'b1;
            if (32'(rq_count[t]) == QN) q_full[t] = 1'b1;
            if (32'(rq_count[t]) > q_max) q_max = 32'(rq_count[t]);
          end
        q_nonempty |= dests;
        if (pool_n - 32'(free_top) > pool_max) pool_max = pool_n - 32'(free_top);
        if ((dests & wait_recv) != 0) wake(dests & wait_recv, 0);
        rx_have = 0; n_recv++;
        n_deliv += 64'($countones(dests));
        rx_free_at = now + 64'(rx_len) + 1;
      end else n_stall++;
    end
    in_ready <= !rx_have;

    // ---- idle detection (tsim_top decides; one cycle later every idle thread wakes)
    if (idle_release && wait_idle != 0) wake(wait_idle, idle_result << 2);
    idle_all <= wait_idle == '1;
    vote_all <= vote == '1;
    inflight <= n_inflight;

    // ---- answers: one per core per cycle
    if (resp_pend != 0)
      for (int c = 0; c < NC; c++)
        if (resp_pend[c*T +: T] != 0) begin
          logic [LT-1:0] tid = 0;
          for (int i = T - 1; i >= 0; i--) if (resp_pend[c*T + i]) tid = LT'(i);
          resp_valid[c] <= 1;
          resp_tid[c] <= tid;
          resp_data[c] <= resp_val[c*T + 32'(tid)];
          resp_pend[c*T + 32'(tid)] = 1'b0;
        end
    end
  end
endmodule
