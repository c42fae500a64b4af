/* emit_fn.h - one exported function's shape function as C (emit_fn.c),
 * printed from its plan (fnplan.h): the checks of each step, the outputs'
 * and intermediates' shapes and largest shapes, the `dims` struct, the
 * element and byte counts, the index constants, the comment above. */
#ifndef AXONC_EMIT_FN_H
#define AXONC_EMIT_FN_H

#include "fnplan.h"

/* One exported function's generated pieces. */
typedef struct FnCode {
    const char *doc;        /* comment lines: the signature and notes */
    int ninputs, noutputs, ntemps;
    Buf dims;               /* the members of P_NAME_dims */
    Buf body;               /* the body of P_NAME_solve */
    Buf counts;             /* the element/byte counts in P_NAME_prepare */
    Buf temp_names;         /* the cases of P_NAME_temp_name */
    Buf indices;            /* #define P_NAME_IN_x 0 ..., OUT_0, TMP_scores */
    PtrVec names;           /* the index constants' names (the header
                             * claims them: cnames.h) */
    int bounded;            /* every size bounded (spec 8b): temp_max holds */
    const int64_t *temp_max;    /* the largest element count of each intermediate */
    const ScratchShape *temp_dims_max;  /* and of each axis (rank -1: unbounded) */
} FnCode;

/* Prints the shape function of fp (cname: its C name, P_NAME) into fc. */
void emit_function(FnPlan *fp, const char *cname, FnCode *fc);

#endif
