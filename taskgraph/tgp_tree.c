/* tgp_tree.c: the kernel table of the multifrontal tree's tg.h graph
 * (apps/tree/tree_tg.h) for tg.h's POETS back end: kernel 0 is a node's
 * function; its ctx is the whole TgNode (the node's props, then its
 * result). Kernel 1, the coroutine of tree_tg.h's --extra-post and
 * --missing-post (tests of the test), is in the host's table only: the
 * firmware image has no room for it (docs/taskgraph.md, "The tree on
 * tg_poets"). The same file is compiled for Tinsel (tgp_tree.elf) and for
 * the host. */
#define TREE_TG_KERNELS_ONLY
#include "tg_poets.h"
#include "tree_tg.h"

_Static_assert(sizeof(TgNode) <= TGP_CTX, "a tree node's ctx fits the device's");
const tgp_kernel tgp_kernels[] = {
    {tg_tree_fn, 0, sizeof(TgNode)},
#ifdef TGP_HOST
    {0, tg_tree_co, sizeof(TgNode)},
#endif
};
const uint32_t tgp_num_kernels = sizeof(tgp_kernels) / sizeof(tgp_kernels[0]);
