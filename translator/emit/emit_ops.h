/* emit_ops.h - run()'s steps (emit_ops.c): each node's kernel call or
 * view, in order. */
#ifndef AXONC_EMIT_OPS_H
#define AXONC_EMIT_OPS_H

#include "emit_run_text.h"

/* How node n's view is made (its case in P_NAME__view). */
void er_view_case(R *r, LNode *n);
/* The steps of a block, in order. */
void er_block_code(R *r, LBlock *b);
/* Copies the view of node src into the view `dst` (a local). */
void er_copy_into(R *r, LNode *src, const char *dst);

#endif
