fuse start 3
