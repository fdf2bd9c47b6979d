fuse start nosuch
