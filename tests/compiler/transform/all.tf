# every legal run of consecutive loops
fuse all
