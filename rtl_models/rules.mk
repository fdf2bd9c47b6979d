# rtl_models/rules.mk: build rules for rtl_models/ (see the top-level Makefile).
#
# The SystemVerilog sources of the cycle models, in compile order; sim/rules.mk
# builds them with Verilator against each configuration's tinsel_pkg.sv.
RTL_MODELS_SRCS := $(addprefix rtl_models/,tsim_dpi.sv mbox_dpi.sv tsim_arbiter.sv tsim_dcache.sv tsim_core.sv mbox.sv progrouter.sv noc.sv board_router.sv tsim_tile.sv tsim_top.sv)
