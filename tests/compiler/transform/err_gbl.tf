fuse total shift
