fuse start scale gather
fuse spread
