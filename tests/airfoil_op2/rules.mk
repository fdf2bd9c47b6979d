# tests/airfoil_op2/rules.mk: airfoil sp as current OP2 programs are written,
# built by op2c inside the suite (seq and tinsel) and run on seq, the
# functional engine and the tile and board models.
SUITES += tests/airfoil_op2/run.sh
