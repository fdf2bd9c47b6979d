// rv_check.h: the instruction-subset check behind checkelf.
#ifndef RV_CHECK_H
#define RV_CHECK_H
#include <stdint.h>

typedef enum { RV_OK, RV_WARN, RV_BAD } rv_status;

typedef struct {
  rv_status status;
  const char *name;   // the offending instruction's mnemonic
  const char *why;    // what Tinsel lacks
} rv_verdict;

rv_verdict rv_check(uint32_t word);
#endif
