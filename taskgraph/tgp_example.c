/* tgp_example.c: the kernel table of the worked example (tg_example.h) for
 * tg.h's POETS back end; node k of tg_example's graph runs kernel k. The
 * same file is compiled for Tinsel (tgp_example.elf) and for the host. */
#include "tg_example.h"
#include "tg_poets.h"

const tgp_kernel tgp_kernels[] = {{0, tgx_gen, 0}, {0, tgx_steps, 0}, {0, tgx_sum, 0}, {tgx_out, 0, sizeof(uint32_t)}};
const uint32_t tgp_num_kernels = sizeof(tgp_kernels) / sizeof(tgp_kernels[0]);
