fuse start gather
