unroll start
