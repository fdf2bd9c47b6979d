// mbox_dpi.sv: the C functions the mailbox and network call (sim/tsim_mbox.c).
// Message contents never travel through the models: a transmitted message is
// captured into a C buffer (a handle), the network moves only the handle,
// its destination and its length, and the receiver copies the contents into
// its slot. So no signal is wider than 64 bits (rtl_sim.md §1.4) and the
// scratchpad stays in the sparse C store the data-cache path already uses.
package mbox_dpi;
  // Copy the FLITS flits of slot SLOT of TILE's scratchpad and the thread
  // mask into a new in-flight message; returns its handle. THREAD is the
  // sender (mailbox-local), for statistics and errors.
  import "DPI-C" function int unsigned tsim_mbox_capture(input int unsigned tile, input int unsigned thread,
                                                         input int unsigned slot, input int unsigned flits,
                                                         input int unsigned mask_hi, input int unsigned mask_lo);
  // The destination-thread mask of an in-flight message.
  import "DPI-C" function longint unsigned tsim_mbox_mask(input int unsigned msg);
  // Copy an in-flight message into slot SLOT of TILE's scratchpad and drop
  // the handle (SLOT is ignored when the mask is empty).
  import "DPI-C" function void tsim_mbox_deliver(input int unsigned msg, input int unsigned tile,
                                                 input int unsigned slot);
  // Stop the run with a message: a thread broke the mailbox's rules.
  // --delay-seed (sim/README.md): whether it was given, and the extra cycles to
  // hold TILE's next transmission (random, seeded, per mailbox).
  import "DPI-C" function bit tsim_mbox_delay_on();
  import "DPI-C" function int unsigned tsim_mbox_delay(input int unsigned tile);
  import "DPI-C" function void tsim_mbox_error(input int unsigned tile, input int unsigned thread,
                                               input int code, input int unsigned value);
  // End-of-run statistics of one mailbox, from its final block; at the end:
  // messages sent (per destination thread) and not yet freed, threads in
  // tinselIdle, threads asleep in WaitUntil (so a hang shows who waits).
  import "DPI-C" function void tsim_mbox_stats(input int unsigned tile, input longint unsigned sent,
                                               input longint unsigned received, input longint unsigned deliveries,
                                               input int unsigned queue_max, input int unsigned pool_max,
                                               input longint unsigned stalled, input int unfreed,
                                               input int unsigned in_idle, input int unsigned asleep);

  // What thread THREAD (mailbox-local) of TILE sleeps on at the end of the run.
  import "DPI-C" function void tsim_mbox_thread_wait(input int unsigned tile, input int unsigned thread,
                                                     input bit can_send, input bit can_recv, input bit idle);

  // End-of-run statistics of NoC router ROUTER of the board at BOARD_XY:
  // messages it forwarded, cycles a ready message waited for a full FIFO or
  // a busy mailbox, most messages buffered.
  import "DPI-C" function void tsim_noc_stats(input int unsigned board_xy, input int unsigned router,
                                              input longint unsigned hops,
                                              input longint unsigned blocked, input int unsigned buffered_max);


  // CSR FromUart of thread THREAD (mailbox-local) of TILE: bit 8 set with a
  // DebugLink StdIn byte in bits 7:0 (taken from the thread's FIFO), else 0.
  import "DPI-C" function int unsigned tsim_uart_get(input int unsigned tile, input int unsigned thread);

  // The receive pool of TILE as its board's first DebugLink QueryIn set it
  // (config bit 4, sim/tsim_debuglink.c): 0 no QueryIn yet, 1 slots
  // ThreadsPerMailbox.. (the default), 2 the extra send slot reserved, so
  // the pool starts at 2 * ThreadsPerMailbox.
  import "DPI-C" function int unsigned tsim_mbox_pool_config(input int unsigned tile);

  // Error codes (match enum in sim/tsim_mbox.c).
  localparam int ErrSendBusy   = 1;  // Send while the previous message is still in the send slot
  localparam int ErrRecvEmpty  = 2;  // Recv with no message waiting
  localparam int ErrFreeSlot   = 3;  // Free of a slot that holds no received message
  localparam int ErrDest       = 4;  // the custom accelerator (not modelled)
  localparam int ErrWaitNone   = 5;  // WaitUntil with no condition: would sleep forever
endpackage
