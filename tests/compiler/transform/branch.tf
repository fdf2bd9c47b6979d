fuse twice once
