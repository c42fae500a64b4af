/* emit_fused.h - a chain of f32 element-wise operators computed in one
 * loop (emit_fused.c). */
#ifndef AXONC_EMIT_FUSED_H
#define AXONC_EMIT_FUSED_H

#include "emit_run_text.h"

/* Node n computed with its fused operands in one loop. */
void er_fused_code(R *r, LNode *n);

#endif
