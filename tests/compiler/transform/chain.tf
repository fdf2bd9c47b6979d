# legal: direct reads and writes of the same element
fuse start scale gather
