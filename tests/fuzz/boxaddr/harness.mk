# libhostlink's box names and box-address map (host/hostlink/hl_boxaddr.c:
# HOSTLINK_BOX_ADDRS, hl_cluster's box_addrs, BoxHosts names).
FUZZ_NAMES += boxaddr
FUZZ_SRCS_boxaddr  := tests/fuzz/boxaddr/fuzz.c host/hostlink/hl_boxaddr.c
FUZZ_FLAGS_boxaddr := -Ihost/hostlink
FUZZ_DEPS_boxaddr  := host/hostlink/hostlink.h
