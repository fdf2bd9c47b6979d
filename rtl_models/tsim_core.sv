// tsim_core.sv: a 16-thread barrel core with Tinsel's scheduling properties.
//
// Tinsel's 8-stage pipeline holds at most one instruction per thread, so an
// instruction's effects can never be observed by its own thread before it
// leaves the pipe, and threads share no registers. This model therefore
// executes an instruction in the cycle it is scheduled and returns the thread
// to the run queue PipelineStages cycles later (a timing wheel), instead of
// moving it through 8 stage registers: the same issue pattern (one
// instruction per cycle per core, full throughput only with >= PipelineStages
// runnable threads) at a fraction of the per-cycle work (rtl_sim.md §1.2).
// Suspending instructions (loads/stores, multiply and FPU, mailbox reads)
// return through the resume queue after their unit latency; the run and
// resume queues are merged fairly by alternating between them. A shared
// unit (FPU, data cache, mailbox) grants one core per cycle; a refused thread
// retries: its pc is not advanced and it re-queues like any other.
// State touched only by this module's own clocked block (register file, timing
// wheel, counters) is updated with blocking assignments: cheaper in Verilator.
// A core with nothing to do (no thread queued or in the wheel, no answer
// arriving, no output to clear) skips its clocked block entirely: OP2-style
// workloads leave most cores asleep in WaitUntil most of the time. The cycle
// counter comes from the harness (tsim_cycle) and idle cycles are counted as
// cycles minus issue cycles, so skipped cycles cost nothing and change nothing.
/* verilator lint_off BLKSEQ */
module tsim_core
  import tinsel_pkg::*;
  import tsim_dpi::*;
(
  input  logic clk,
  input  logic [63:0] cycle /*verilator public_flat_rd*/,       // the cycle being clocked (0 at the first edge; the harness counts)
  input  logic [31:0] core_id /*verilator public_flat_rd*/,     // core number in the run: board index * CoresPerBoard + core on
                                   // the board (a port, not a parameter: one Verilator class)
  input  logic [31:0] board_xy /*verilator public_flat_rd*/,  // the board's mesh address {Y, X} (HartId, tinsel.md §2.4)
  // Instruction memory (in the tile; shared by a core pair): read and write port.
  output logic [LogImemModel-1:0]     imem_raddr,
  input  logic [31:0]                 imem_rdata /*verilator public_flat_rd*/,
  output logic                        imem_we,
  output logic [LogImemModel-1:0]     imem_waddr,
  output logic [31:0]                 imem_wdata,
  // Shared FPU (also integer multiply): request this cycle, grant this cycle.
  output logic fpu_req,
  input  logic fpu_gnt /*verilator public_flat_rd*/,
  // Shared data cache: request/grant this cycle; the granted access is
  // registered (dc_valid...) for the tile's latency model, which later
  // raises the thread's bit in dc_resume.
  output logic                      dc_req,
  input  logic                      dc_gnt /*verilator public_flat_rd*/,
  output logic                      dc_valid,
  output logic [LogThreadsPerCore-1:0] dc_tid,
  output logic [3:0]                dc_outcome,  // what the cache did (tsim_dpi: DcHit...)
  input  logic [ThreadsPerCore-1:0] dc_resume /*verilator public_flat_rd*/,
  input  logic [31:0]               dc_hits /*verilator public_flat_rd*/, dc_misses /*verilator public_flat_rd*/, dc_writebacks /*verilator public_flat_rd*/,
  // The mailbox's scratchpad, the other way to memory (Tinsel's Core.bsv
  // sends an access whose address is below 2^LogOffChipRAMBaseAddr to the
  // mailbox, not to the cache): its own grant per cycle among the tile's
  // cores; a fixed latency (ScratchpadLatency), through the core's wheel.
  output logic                      sp_req,
  input  logic                      sp_gnt /*verilator public_flat_rd*/,
  // Mailbox port (rtl_models/README.md): CSR accesses 0x802-0x80b and Send.
  output logic                      mb_req,
  input  logic                      mb_gnt /*verilator public_flat_rd*/,
  output logic                      mb_valid,
  output logic [LogThreadsPerCore-1:0] mb_tid,
  output logic                      mb_send,
  output logic [11:0]               mb_csr,
  output logic [31:0]               mb_wdata,
  output logic [31:0]               mb_wdata2,
  output logic                      mb_wants_resp,
  input  logic                      mb_resp_valid /*verilator public_flat_rd*/,
  input  logic [LogThreadsPerCore-1:0] mb_resp_tid /*verilator public_flat_rd*/,
  input  logic [31:0]               mb_resp_data /*verilator public_flat_rd*/,
  // An instruction retired last cycle (the watchdog: tsim_top.sv).
  output logic                      retiring
);
  // One C++ class for all cores, called per instance: 64 inlined copies
  // would multiply the code (i-cache) and the build time. Verilator 5.006
  // still emits each instance's clocked block as a function of its own; the
  // input ports are public_flat_rd (kept as the core's own members instead of
  // being replaced by the signals they connect to; read-only, so they add no
  // input-combinational logic to every eval) and the combinational blocks
  // call no functions (whose temporaries would be members numbered per
  // instance), so those 64 functions are identical and the C++ compiler
  // folds them into one body that stays in the host's instruction cache
  // (sim/README.md "Performance"). Same for the tiles (tsim_tile.sv).
  /*verilator no_inline_module*/
  localparam int unsigned T  = ThreadsPerCore;
  localparam int unsigned LT = LogThreadsPerCore;
  // Longest delay a thread spends in the wheel: pipeline plus the slowest unit.
  localparam int unsigned MaxUnitLat = FPMultLatency + FPAddSubLatency > IntDivLatency
                                       ? FPMultLatency + FPAddSubLatency : IntDivLatency;
  localparam int unsigned LW = $clog2(PipelineStages + MaxUnitLat + 1);

  // Opcodes (RISC-V base encoding).
  localparam logic [6:0] OpLoad = 7'b0000011, OpLoadFp = 7'b0000111, OpMiscMem = 7'b0001111,
                         OpImm = 7'b0010011, OpAuipc = 7'b0010111, OpStore = 7'b0100011,
                         OpStoreFp = 7'b0100111, OpReg = 7'b0110011, OpLui = 7'b0110111,
                         OpMadd = 7'b1000011, OpMsub = 7'b1000111, OpNmsub = 7'b1001011,
                         OpNmadd = 7'b1001111, OpFp = 7'b1010011, OpBranch = 7'b1100011,
                         OpJalr = 7'b1100111, OpJal = 7'b1101111, OpSystem = 7'b1110011;
  // OP-FP funct5 values.
  localparam logic [4:0] FAdd = 5'b00000, FSub = 5'b00001, FMul = 5'b00010, FDiv = 5'b00011,
                         FSqrt = 5'b01011, FSgnj = 5'b00100, FMinMax = 5'b00101,
                         FCmp = 5'b10100, FCvtWS = 5'b11000, FCvtSW = 5'b11010,
                         FMvXW = 5'b11100, FMvWX = 5'b11110;

  // ---------------------------------------------------------------- state
  logic [31:0] rf [2**(LT+6)];        // {thread, fp, reg}; x0 is never written
  logic [31:0] pc [T];
  logic [LogImemModel-1:0] instr_waddr [T];        // CSR InstrAddr, per thread
  logic [4:0]  pend_rd [T];           // destination of a pending mailbox read
  logic [2*T-1:0] wheel [2**LW];      // per cycle: {resume mask, run mask}
  logic [2**LW-1:0] wheel_busy;       // wheel slots holding a thread
  logic [LW-1:0] now;                 // wheel position: the cycle, modulo the wheel
  logic [T-1:0] run_m, res_m;         // run and resume queues (as masks)
  logic [T-1:0] alive;                // started, not killed or halted
  logic [LT-1:0] last_tid;            // round-robin position
  logic prefer_res;                   // alternate between the two queues
  logic full;                         // profile full
  logic outs_set;                     // an output pulse was raised: clear it next cycle
  longint unsigned n_issued;          // cycles that issued an instruction (idle = cycles - n_issued)
  longint unsigned n_retired, n_susp_mem, n_susp_fpu, n_susp_mb, n_retry;

  logic [31:0] imem_words;            // this run's instruction memory (--imem)
  logic started;  // threads are started in the first cycle, when core_id is known

  initial begin
    full = tsim_profile_full();
    imem_words = tsim_imem_words();
    for (int i = 0; i < 2**(LT+6); i++) rf[i] = 0;
    for (int i = 0; i < 2**LW; i++) wheel[i] = 0;
    wheel_busy = 0;
    for (int t = 0; t < T; t++) begin
      pc[t] = 0;  // the entry is set in the first cycle (per core: tsim --preload)
      instr_waddr[t] = 0;
      pend_rd[t] = 0;
    end
    started = 0;
    alive = 0;
    run_m = 0;
    res_m = 0;
    last_tid = '1;
    prefer_res = 0;
    outs_set = 0;
    n_issued = 0;
    n_retired = 0; n_susp_mem = 0; n_susp_fpu = 0; n_susp_mb = 0; n_retry = 0;
    dc_valid = 0; mb_valid = 0; imem_we = 0; retiring = 0;
  end

  final begin
    tsim_core_stats(core_id, n_retired, tsim_cycle() - n_issued, n_susp_mem, n_susp_fpu, n_susp_mb, n_retry);
    // Each thread at the end (a deadlock report): ready = queued or in the wheel.
    for (int t = 0; t < T; t++) begin
      logic ready = run_m[t] || res_m[t];
      for (int w = 0; w < 2**LW; w++) ready = ready || wheel[w][t] || wheel[w][T + t];
      tsim_thread_state(core_id, 32'(t), alive[t], ready, pc[t]);
    end
  end

  // ---------------------------------------------------------------- schedule (combinational)
  // No function calls in the combinational blocks (see no_inline_module above).
  typedef enum logic [2:0] { UNone, UFpu, UMem, UMbox, USpad } unit_t;

  logic          sel_valid, use_res;
  logic [LT-1:0] sel_tid;
  logic [31:0]   sel_pc, instr;
  unit_t         unit;

  // The thread to issue: the first set bit after last_tid, cyclically, of
  // the resume or the run queue (alternating when both have threads).
  always_comb begin : sched
    logic [T-1:0]   m;
    logic [2*T-1:0] twice;
    m = 0; twice = 0;
    use_res = res_m != 0 && (prefer_res || run_m == 0);
    if ((run_m | res_m) == 0) {sel_valid, sel_tid} = {1'b0, last_tid};
    else begin
      m = use_res ? res_m : run_m;
      twice = {m, m} >> (last_tid + 1'b1);
      {sel_valid, sel_tid} = 0;
      for (int i = T - 1; i >= 0; i--)
        if (twice[i]) {sel_valid, sel_tid} = {1'b1, LT'(last_tid + 1'b1 + LT'(i))};
    end
    sel_pc = pc[sel_tid];
  end
  assign imem_raddr = sel_pc[LogImemModel+1:2];
  assign now = cycle[LW-1:0];
  // No fetch without a thread to issue: most cores are idle most cycles, and
  // the fetch is a host cache miss (the instruction memories are large).
  // Which shared unit the instruction needs (none for core-local ones).
  always_comb begin : fetch
    logic [11:0] csr;
    logic [31:0] maddr;
    csr = 0;
    instr = 0;
    maddr = 0;
    unit = UNone;
    if (sel_valid) begin
      instr = imem_rdata;
      csr = instr[31:20];
      unique case (instr[6:0])
        OpLoad, OpStore, OpLoadFp, OpStoreFp: begin
          // The address decides the port (the registers are the thread's own:
          // none of its instructions is in flight).
          maddr = rf[{sel_tid, 1'b0, instr[19:15]}] +
                  (instr[5] ? {{20{instr[31]}}, instr[31:25], instr[11:7]} : {{20{instr[31]}}, instr[31:20]});
          unit = maddr[31:LogOffChipRAMBaseAddr] == 0 ? USpad : UMem;
        end
        OpReg: unit = instr[31:25] == 7'b0000001 && (!instr[14] || full) ? UFpu : UNone;
        OpMadd, OpMsub, OpNmsub, OpNmadd: unit = full ? UFpu : UNone;
        OpFp: begin
          case (instr[31:27])
            FAdd, FSub, FMul, FDiv, FCvtWS, FCvtSW: unit = UFpu;
            FCmp: unit = UFpu;
            FSqrt, FMinMax: unit = full ? UFpu : UNone;
            default: unit = UNone;
          endcase
        end
        OpSystem: begin
          if (instr[14:12] == 3'b000 || !(full || instr[14:12] == 3'b001)) unit = UNone;
          else if (csr == CsrFlush) unit = UMem;
          else if (csr >= CsrFree && csr <= CsrFromUart) unit = UMbox;
          else unit = UNone;
        end
        7'(SendOpcode): unit = instr[14:12] == 3'b000 ? UMbox : UNone;
        default: unit = UNone;
      endcase
    end
    fpu_req = unit == UFpu;
    dc_req = unit == UMem;
    sp_req = unit == USpad;
    mb_req = unit == UMbox;
  end

  // ---------------------------------------------------------------- execute
  function automatic logic [31:0] alu(input logic [2:0] f3, input logic alt,
                                      input logic [31:0] a, input logic [31:0] b);
    unique case (f3)
      3'b000: alu = alt ? a - b : a + b;
      3'b001: alu = a << b[4:0];
      3'b010: alu = {31'b0, $signed(a) < $signed(b)};
      3'b011: alu = {31'b0, a < b};
      3'b100: alu = a ^ b;
      3'b101: alu = alt ? 32'($signed(a) >>> b[4:0]) : a >> b[4:0];
      3'b110: alu = a | b;
      default: alu = a & b;
    endcase
  endfunction

  // RISC-V M: multiply high variants and division with its defined corner cases.
  function automatic logic [31:0] muldiv(input logic [2:0] f3, input logic [31:0] a, input logic [31:0] b);
    logic [63:0] sa = {{32{a[31]}}, a}, sb = {{32{b[31]}}, b};
    unique case (f3)
      3'b000: muldiv = a * b;
      3'b001: muldiv = 32'((sa * sb) >> 32);
      3'b010: muldiv = 32'((sa * {32'b0, b}) >> 32);
      3'b011: muldiv = 32'(({32'b0, a} * {32'b0, b}) >> 32);
      3'b100: muldiv = b == 0 ? '1 : (a == 32'h80000000 && b == '1) ? a : 32'($signed(a) / $signed(b));
      3'b101: muldiv = b == 0 ? '1 : a / b;
      3'b110: muldiv = b == 0 ? a : (a == 32'h80000000 && b == '1) ? 0 : 32'($signed(a) % $signed(b));
      default: muldiv = b == 0 ? a : a % b;
    endcase
  endfunction

  function automatic int unsigned fp_latency(input logic [31:0] i);
    if (i[6:0] != OpFp) fp_latency = i[6:0] == OpReg ? (i[14] ? IntDivLatency : IntMultLatency)
                                               : FPMultLatency + FPAddSubLatency;
    else
      case (i[31:27])
      FAdd, FSub: fp_latency = FPAddSubLatency;
      FMul: fp_latency = FPMultLatency;
      FDiv: fp_latency = FPDivLatency;
      FSqrt: fp_latency = FPSqrtLatency;
      FCvtWS, FCvtSW: fp_latency = FPConvertLatency;
      default: fp_latency = FPCompareLatency;
      endcase
  endfunction

  always_ff @(posedge clk) begin : step
    logic [T-1:0]   start_mask;
    logic [2*T-1:0] arrived;
    logic [T-1:0]   run_n, res_n, bit_t;
    logic [6:0]  op;
    logic [4:0]  rd, rs1, rs2;
    logic [2:0]  f3;
    logic [31:0] a, b, fa, fb, fc, imm_i, imm_s, imm_b, npc, res, addr, rdata, csr_old, csr_new, dc_out;
    logic [11:0] csr;
    logic wb, wb_fp, requeue, suspend, retry, halt, unsupported, csr_writes;
    int unsigned lat;
    int halt_reason;

    // Asleep: nothing queued, nothing due from the wheel, nothing arriving,
    // no output pulse to clear: the cycle would change nothing.
    if (started && !sel_valid && !wheel_busy[now] && dc_resume == 0 && !mb_resp_valid && !outs_set) begin
    end else begin
    if (!started) begin
      start_mask = T'(tsim_start_mask(core_id));
      started = 1;
      for (int t = 0; t < T; t++) rf[{LT'(t), 1'b0, 5'd2}] = tsim_initial_sp(core_id, t);
      for (int t = 0; t < T; t++) pc[t] <= tsim_entry(core_id);
      alive = start_mask;
      run_n = start_mask;
    end else run_n = run_m;
    arrived = wheel[now];
    if (arrived != 0) begin
      wheel[now] = 0;
      wheel_busy[now] = 1'b0;
    end
    run_n |= arrived[T-1:0];
    res_n = res_m | arrived[2*T-1:T] | dc_resume;
    if (mb_resp_valid) begin
      if (pend_rd[mb_resp_tid] != 0) rf[{mb_resp_tid, 1'b0, pend_rd[mb_resp_tid]}] = mb_resp_data;
      res_n[mb_resp_tid] = 1'b1;
    end
    if (outs_set) begin
      dc_valid <= 0;
      mb_valid <= 0;
      imem_we <= 0;
      retiring <= 0;
      outs_set = 0;
    end

    if (sel_valid) begin
      outs_set = 1;  // conservatively: any issued instruction may raise an output
      last_tid <= sel_tid;
      prefer_res <= !use_res;
      bit_t = T'(1) << sel_tid;
      run_n &= ~bit_t;
      res_n &= ~bit_t;

      op = instr[6:0]; rd = instr[11:7]; f3 = instr[14:12];
      rs1 = instr[19:15]; rs2 = instr[24:20];
      a = rf[{sel_tid, 1'b0, rs1}];
      b = rf[{sel_tid, 1'b0, rs2}];
      fa = rf[{sel_tid, 1'b1, rs1}];
      fb = rf[{sel_tid, 1'b1, rs2}];
      fc = rf[{sel_tid, 1'b1, instr[31:27]}];
      imm_i = {{20{instr[31]}}, instr[31:20]};
      imm_s = {{20{instr[31]}}, instr[31:25], instr[11:7]};
      imm_b = {{20{instr[31]}}, instr[7], instr[30:25], instr[11:8], 1'b0};
      npc = sel_pc + 4;
      res = 0; wb = 0; wb_fp = 0;
      requeue = 1; suspend = 0; retry = 0; halt = 0; unsupported = 0;
      halt_reason = HaltIllegal;
      lat = PipelineStages;

      if ((sel_pc >> 2) >= imem_words || sel_pc[1:0] != 0) begin
        halt = 1; halt_reason = HaltPc;
      end else if ((unit == UFpu && !fpu_gnt) || (unit == UMem && !dc_gnt) || (unit == USpad && !sp_gnt) ||
                   (unit == UMbox && !mb_gnt)) begin
        retry = 1;
      end else begin
        unique case (op)
          OpLui:   begin res = {instr[31:12], 12'b0}; wb = 1; end
          OpAuipc: begin res = sel_pc + {instr[31:12], 12'b0}; wb = 1; end
          OpJal: begin
            res = npc; wb = 1;
            npc = sel_pc + {{12{instr[31]}}, instr[19:12], instr[20], instr[30:21], 1'b0};
          end
          OpJalr: begin res = npc; wb = 1; npc = (a + imm_i) & ~32'd1; halt = f3 != 0; end
          OpBranch: begin
            logic taken;
            unique case (f3)
              3'b000: taken = a == b;
              3'b001: taken = a != b;
              3'b100: taken = $signed(a) < $signed(b);
              3'b101: taken = $signed(a) >= $signed(b);
              3'b110: taken = a < b;
              3'b111: taken = a >= b;
              default: begin taken = 0; halt = 1; end
            endcase
            if (taken) npc = sel_pc + imm_b;
          end
          OpImm: begin
            // Shifts by immediate: funct7 must be 0, or 0100000 for srai.
            if (f3 == 3'b001 && instr[31:25] != 0) halt = 1;
            if (f3 == 3'b101 && {instr[31], instr[29:25]} != 0) halt = 1;
            res = alu(f3, f3 == 3'b101 && instr[30], a, imm_i); wb = 1;
          end
          OpReg: begin
            if (instr[31:25] == 7'b0000001) begin
              if (f3[2] && !full) unsupported = 1;
              else begin
                res = muldiv(f3, a, b); wb = 1;
                suspend = 1; lat += fp_latency(instr); n_susp_fpu++;
              end
            end else if (instr[31:25] == 0 || (instr[31:25] == 7'b0100000 && (f3 == 3'b000 || f3 == 3'b101))) begin
              res = alu(f3, instr[30], a, b); wb = 1;
            end else halt = 1;
          end
          OpLoad, OpLoadFp, OpStore, OpStoreFp: begin
            addr = a + (op[5] ? imm_s : imm_i);
            if (tsim_mem(core_id, 32'(sel_tid), sel_pc, instr, addr, op[2] ? fb : b, rdata, dc_out) != 0) begin
              requeue = 0; alive[sel_tid] = 0;  // tsim_mem reported the halt
            end else begin
              res = rdata; wb = !op[5]; wb_fp = op[2];
              suspend = 1; n_susp_mem++;
              if (32'(dc_out[2:0]) == DcScratchpad) lat += ScratchpadLatency;  // back through the wheel
              else begin
                requeue = 0;
                dc_valid <= 1; dc_tid <= sel_tid; dc_outcome <= 4'(dc_out);
              end
            end
          end
          OpMiscMem: ;  // fence, fence.i: one thread's accesses are already in order
          OpMadd, OpMsub, OpNmsub, OpNmadd: begin
            if (!full) unsupported = 1;
            else begin
              res = tsim_fp(instr, fa, fb, fc); wb = 1; wb_fp = 1;
              suspend = 1; lat += fp_latency(instr); n_susp_fpu++;
            end
          end
          OpFp: begin
            unique case (instr[31:27])
              FSgnj: begin
                wb = 1; wb_fp = 1;
                unique case (f3)
                  3'b000: res = {fb[31], fa[30:0]};
                  3'b001: res = {~fb[31], fa[30:0]};
                  3'b010: res = {fa[31] ^ fb[31], fa[30:0]};
                  default: halt = 1;
                endcase
              end
              FMvXW: begin  // fmv.x.w (f3 000) or fclass.s (f3 001)
                if (f3 == 3'b000) begin res = fa; wb = 1; end
                else if (f3 == 3'b001) begin
                  if (!full) unsupported = 1; else begin res = tsim_fp(instr, fa, fb, 0); wb = 1; end
                end else halt = 1;
              end
              FMvWX: begin res = a; wb = 1; wb_fp = 1; end
              FAdd, FSub, FMul, FDiv, FSqrt, FMinMax, FCmp, FCvtWS, FCvtSW: begin
                if (unit != UFpu) unsupported = 1;  // fsqrt, fmin/fmax outside profile full
                else begin
                  // Integer operands for fcvt.s.w[u], fp otherwise; integer results for compares and fcvt.w[u].s.
                  res = tsim_fp(instr, instr[31:27] == FCvtSW ? a : fa, fb, 0);
                  wb = 1; wb_fp = instr[31:27] != FCmp && instr[31:27] != FCvtWS;
                  suspend = 1; lat += fp_latency(instr); n_susp_fpu++;
                end
              end
              default: halt = 1;
            endcase
          end
          OpSystem: begin
            if (f3 == 3'b000) begin
              // ecall, ebreak: no trap architecture on Tinsel; no-ops under profile full.
              if (instr[31:21] != 0 || instr[19:7] != 0) halt = 1;
              else if (!full) unsupported = 1;
            end else if (f3 == 3'b100) halt = 1;
            else if (f3 != 3'b001 && !full) unsupported = 1;
            else begin
              csr = instr[31:20];
              csr_old = 0;
              // csrrw/csrrwi always write; the set/clear forms only with a non-zero source.
              csr_writes = f3[1:0] == 2'b01 || rs1 != 0;
              if (csr >= CsrFree && csr <= CsrFromUart) begin
                // Mailbox CSRs: the mailbox answers reads (thread suspended until then).
                mb_valid <= 1; mb_tid <= sel_tid; mb_send <= 0; mb_csr <= csr;
                mb_wdata <= f3[2] ? {27'b0, rs1} : a; mb_wdata2 <= 0;
                mb_wants_resp <= rd != 0 || csr == CsrWaitUntil || csr == CsrRecv || csr == CsrCanRecv;
                if (rd != 0 || csr == CsrWaitUntil || csr == CsrRecv || csr == CsrCanRecv) begin
                  pend_rd[sel_tid] = rd; requeue = 0; n_susp_mb++;
                end
              end else begin
                case (csr)
                  CsrFFlag, CsrFRM, CsrFCSR, CsrInstrAddr, CsrInstr, CsrNewThread, CsrKillThread,
                  CsrEmit, CsrFlush, CsrPerfCount: csr_old = 0;
                  CsrHartId: csr_old = (board_xy << LogThreadsPerBoard) | ((core_id % CoresPerBoard) << LT) | 32'(sel_tid);
                  // Cycles before this one (40 bits, as Tinsel's counters); idle: those that issued nothing.
                  CsrCycle: csr_old = cycle[31:0];
                  CsrCycleU: csr_old = {24'b0, cycle[39:32]};
                  CsrCPUIdleCount: csr_old = 32'(cycle - n_issued);
                  CsrCPUIdleCountU: csr_old = {24'b0, 8'((cycle - n_issued) >> 32)};
                  CsrMissCount: csr_old = dc_misses;
                  CsrHitCount: csr_old = dc_hits;
                  CsrWritebackCount: csr_old = dc_writebacks;
                  CsrToUart: csr_old = 1;
                  CsrProgRouterSent: csr_old = tsim_pr_counter(core_id / CoresPerBoard, 0);
                  CsrProgRouterSentInter: csr_old = tsim_pr_counter(core_id / CoresPerBoard, 1);
                  default: begin halt = 1; halt_reason = HaltCsr; end
                endcase
                csr_new = f3[2] ? {27'b0, rs1} : a;
                if (f3[1:0] == 2'b10) csr_new = csr_old | csr_new;
                if (f3[1:0] == 2'b11) csr_new = csr_old & ~csr_new;
                res = csr_old; wb = 1;
                if (csr_writes && !halt) begin
                  case (csr)
                    CsrInstrAddr: instr_waddr[sel_tid] = csr_new[LogImemModel-1:0];
                    CsrInstr: begin
                      imem_we <= 1; imem_waddr <= instr_waddr[sel_tid]; imem_wdata <= csr_new;
                      instr_waddr[sel_tid] = instr_waddr[sel_tid] + 1'b1;
                    end
                    CsrNewThread: if (!alive[csr_new[LT-1:0]] && csr_new[LT-1:0] != sel_tid) begin
                      alive[csr_new[LT-1:0]] = 1;
                      pc[csr_new[LT-1:0]] <= 0;
                      run_n[csr_new[LT-1:0]] = 1'b1;
                    end
                    CsrKillThread: begin requeue = 0; alive[sel_tid] = 0; end
                    CsrEmit: tsim_emit(core_id, 32'(sel_tid), csr_new);
                    CsrToUart: tsim_uart_put(core_id, 32'(sel_tid), csr_new);
                    CsrFlush: begin
                      dc_valid <= 1; dc_tid <= sel_tid; dc_outcome <= 4'(tsim_dc_flush(core_id, 32'(sel_tid), csr_new));
                      suspend = 1; requeue = 0; n_susp_mem++;
                    end
                    default: ;
                  endcase
                end
              end
            end
          end
          default: begin
            if (op == 7'(SendOpcode) && f3 == 0 && rd == 0) begin
              mb_valid <= 1; mb_tid <= sel_tid; mb_send <= 1; mb_csr <= 0;
              mb_wdata <= a; mb_wdata2 <= b; mb_wants_resp <= 0;
            end else halt = 1;
          end
        endcase
      end

      if (unsupported) begin halt = 1; halt_reason = HaltProfile; end
      if (halt) begin
        tsim_halt(core_id, 32'(sel_tid), sel_pc, instr, halt_reason);
        alive[sel_tid] = 0;
      end else if (retry) begin
        n_retry++;
        wheel[now + LW'(PipelineStages - 1)][{1'b0, sel_tid}] = 1'b1;
        wheel_busy[now + LW'(PipelineStages - 1)] = 1'b1;
      end else begin
        n_retired++;
        retiring <= 1;
        if (wb && (wb_fp || rd != 0)) rf[{sel_tid, wb_fp, rd}] = res;
        pc[sel_tid] <= npc;
        if (requeue) begin  // ready in cycle +lat
          wheel[now + LW'(lat - 1)][{suspend, sel_tid}] = 1'b1;
          wheel_busy[now + LW'(lat - 1)] = 1'b1;
        end
      end
      n_issued++;
    end
    run_m <= run_n;
    res_m <= res_n;
    end
  end
endmodule
