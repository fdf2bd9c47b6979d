// tsim_arbiter.sv: one grant per cycle among N requesters, round-robin, so a
// shared unit serves its cores fairly; a refused core retries the thread.
module tsim_arbiter #(parameter int unsigned N = 4) (
  input  logic         clk,
  input  logic [N-1:0] req,
  output logic [N-1:0] gnt
);
  logic [$clog2(N+1)-1:0] next = 0;  // first requester to consider

  // The first requester at or after `from`, cyclically.
  function automatic logic [N-1:0] grant(input logic [N-1:0] r, input int unsigned from);
    grant = 0;
    for (int k = N - 1; k >= 0; k--)
      if (r[(from + 32'(k)) % N]) grant = N'(1) << ((from + 32'(k)) % N);
  endfunction

  always_comb begin
    gnt = 0;
    if (req != 0) gnt = grant(req, 32'(next));  // mostly no request: skip the search
  end

  always_ff @(posedge clk)
    if (req != 0)
      for (int i = 0; i < N; i++)
        if (gnt[i]) next <= ($clog2(N+1))'((i + 1) % N);
endmodule
