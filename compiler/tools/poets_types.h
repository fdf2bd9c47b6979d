// poets_types.h: the scalar types of POETS XML typed data, the ones
// graph_schema's readers accept (besides struct), in one list: poets_check
// checks declarations against it, op2c keeps invocation names (which start
// state members) from beginning with one, and op2c's member tables for the
// instance writer (op_tinsel.h OP2T_M_*, in this order) name them.
#ifndef POETS_TYPES_H
#define POETS_TYPES_H

#define POETS_TYPE_NAMES \
  "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "float", "double"

#endif
