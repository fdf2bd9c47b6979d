// tsim_arbiter.sv: one grant per cycle among N requesters, round-robin, so a
// shared unit serves its cores fairly; a refused core retries the thread.
module tsim_arbiter #(parameter int unsigned N = 4) (
  input  logic         clk,
  input  logic [N-1:0] req,
  output logic [N-1:0] gnt
);
  logic [$clog2(N+1)-1:0] next = 0;  // first requester to consider

  // The first requester at or after `next`, cyclically. Written without a
  // function: Verilator would keep its temporaries as members numbered per
  // instance, and the tiles' generated code would differ (tsim_core.sv).
  always_comb begin
    gnt = 0;
    if (req != 0)  // mostly no request: skip the search
      for (int k = N - 1; k >= 0; k--)
        if (req[(32'(next) + 32'(k)) % N]) gnt = N'(1) << ((32'(next) + 32'(k)) % N);
  end

  always_ff @(posedge clk)
    if (req != 0)
      for (int i = 0; i < N; i++)
        if (gnt[i]) next <= ($clog2(N+1))'((i + 1) % N);
endmodule
