/* ==== axon run shapes begin ==== */
/*! templates/run_solve.h - the shape function of the tensors that run() computes (every node of the
 * lowered function, emit_run.c): as a function's P_NAME_solve (templates/function.h), its
 * intermediates being those nodes; dyn[k] is the size that the k-th nonzero found (its second
 * instance, P_NAME__rd_, run() calls after each nonzero).  axonc replaces axon_tmpl_ with P_NAME__r_ and the marked lines.
 * Compiles on its own after axon_runtime.h (tests/emit/templates.test checks it). */
typedef struct axon_tmpl_dims {
    int axon__none; /* @DIMS@ */
} axon_tmpl_dims;

AXON_FN int axon_tmpl_solve(const axon_shape *in, axon_shape *out, axon_shape *tmp,
                            axon_tmpl_dims *dims, axon_shape *out_max, axon_shape *tmp_max,
                            const int64_t *dyn, axon_error *err)
{
    (void)dyn;
    (void)in; (void)out; (void)tmp; (void)dims; (void)out_max; (void)tmp_max; (void)err; /* @BODY@ */
    return AXON_OK;
}
/* ==== axon run shapes end ==== */
