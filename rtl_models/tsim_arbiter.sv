// tsim_arbiter.sv: one grant per cycle among N requesters, round-robin, so a
// shared unit serves its cores fairly; a refused core retries the thread.
module tsim_arbiter #(parameter int unsigned N = 4) (
  input  logic         clk,
  input  logic [N-1:0] req,
  output logic [N-1:0] gnt
);
  logic [$clog2(N+1)-1:0] next = 0;  // first requester to consider

  always_comb begin
    gnt = 0;
    for (int k = N - 1; k >= 0; k--) begin
      int unsigned i = (32'(next) + 32'(k)) % N;
      if (req[i]) gnt = N'(1) << i;
    end
  end

  always_ff @(posedge clk)
    if (req != 0)
      for (int i = 0; i < N; i++)
        if (gnt[i]) next <= ($clog2(N+1))'((i + 1) % N);
endmodule
