fuse spread pull
