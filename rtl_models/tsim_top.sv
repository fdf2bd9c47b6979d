// tsim_top.sv: one board: MailboxesPerBoard tiles (the configuration's
// CoresPerBoard cores). The clock is the only port; the harness drives it.
module tsim_top
  import tinsel_pkg::*;
(
  input logic clk
);
  for (genvar t = 0; t < MailboxesPerBoard; t++) begin : tile
    tsim_tile u (.clk, .tile_id(t));
  end
endmodule
