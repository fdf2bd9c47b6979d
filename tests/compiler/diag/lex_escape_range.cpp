// A hex escape past a char (the value overflowed an int while read).
const char *s = "\xfffffffffffffffff";
