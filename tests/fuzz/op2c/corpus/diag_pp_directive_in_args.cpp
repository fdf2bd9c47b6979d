// A directive inside the arguments of a macro call: the line ends at the
// end of the arguments (it was a null dereference).
#define F(x) x
F(
#undef A x)
