# The airfoil mesh reader (apps/airfoil/airfoil_mesh.h) and op2place's graph
# of a mesh (host/place/airfoil_graph.c on host/place/graph.c).
FUZZ_NAMES += mesh
FUZZ_SRCS_mesh  := tests/fuzz/mesh/fuzz.c host/place/airfoil_graph.c host/place/graph.c
FUZZ_FLAGS_mesh := -Iapps/airfoil -Ihost/place -Iboards -I$(GEN)
FUZZ_DEPS_mesh  := apps/airfoil/airfoil_mesh.h host/place/place.h host/place/place_internal.h $(GEN)/tinsel_config.h
