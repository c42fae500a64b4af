/* ==== axon function begin ==== */
/*! templates/function.h - the scaffolding of one exported function.  axonc replaces the tokens
 * axon_tmpl_ and AXON_TMPL_ with the function's prefix (P_NAME_), and each
 * line ending in a marker comment with generated text.  Compiles on its own
 * after axon_runtime.h (tests/emit/templates.test checks it). */

/* The function's signature. */ /* @DOC@ */
#define AXON_TMPL_NUM_INPUTS 0 /* @NUM_INPUTS@ */
#define AXON_TMPL_NUM_OUTPUTS 0 /* @NUM_OUTPUTS@ */
#define AXON_TMPL_NUM_TEMPS 0 /* @NUM_TEMPS@ */

/* The values of the function's symbolic dimensions (and shape variables)
 * after a successful check; a size the inputs do not determine is
 * AXON_DIM_UNKNOWN. */
typedef struct axon_tmpl_dims {
    int axon__none; /* @DIMS@ */
} axon_tmpl_dims;

/* Everything a runtime needs to allocate: the dimensions, the shape of each
 * output and intermediate tensor, and their element and byte counts (-1
 * where a size is unknown); and the largest each can be whatever the data
 * (a data-dependent size `?` at its bound; -1 counts where nothing bounds
 * it), which is the shape itself where the inputs determine every size. */
typedef struct axon_tmpl_plan {
    axon_tmpl_dims dims;
    axon_shape out[AXON_TMPL_NUM_OUTPUTS > 0 ? AXON_TMPL_NUM_OUTPUTS : 1];
    int64_t out_elements[AXON_TMPL_NUM_OUTPUTS > 0 ? AXON_TMPL_NUM_OUTPUTS : 1];
    int64_t out_bytes[AXON_TMPL_NUM_OUTPUTS > 0 ? AXON_TMPL_NUM_OUTPUTS : 1];
    axon_shape tmp[AXON_TMPL_NUM_TEMPS > 0 ? AXON_TMPL_NUM_TEMPS : 1];
    int64_t tmp_elements[AXON_TMPL_NUM_TEMPS > 0 ? AXON_TMPL_NUM_TEMPS : 1];
    int64_t tmp_bytes[AXON_TMPL_NUM_TEMPS > 0 ? AXON_TMPL_NUM_TEMPS : 1];
    axon_shape out_max[AXON_TMPL_NUM_OUTPUTS > 0 ? AXON_TMPL_NUM_OUTPUTS : 1];
    int64_t out_max_elements[AXON_TMPL_NUM_OUTPUTS > 0 ? AXON_TMPL_NUM_OUTPUTS : 1];
    int64_t out_max_bytes[AXON_TMPL_NUM_OUTPUTS > 0 ? AXON_TMPL_NUM_OUTPUTS : 1];
    axon_shape tmp_max[AXON_TMPL_NUM_TEMPS > 0 ? AXON_TMPL_NUM_TEMPS : 1];
    int64_t tmp_max_elements[AXON_TMPL_NUM_TEMPS > 0 ? AXON_TMPL_NUM_TEMPS : 1];
    int64_t tmp_max_bytes[AXON_TMPL_NUM_TEMPS > 0 ? AXON_TMPL_NUM_TEMPS : 1];
    int64_t workspace_bytes; /* @RUN_PLAN@ */
} axon_tmpl_plan;

/* Checks the input shapes and computes every shape; tmp, dims, out_max and
 * tmp_max (the largest shapes, as in the plan; tmp_max with tmp) may be
 * NULL.  Returns AXON_OK, or a status with *err filled (err may be NULL). */
AXON_FN int axon_tmpl_solve(const axon_shape *in, axon_shape *out, axon_shape *tmp,
                            axon_tmpl_dims *dims, axon_shape *out_max, axon_shape *tmp_max,
                            axon_error *err)
{
    (void)in; (void)out; (void)tmp; (void)dims; (void)out_max; (void)tmp_max; (void)err; /* @BODY@ */
    return AXON_OK;
}

/* in[]: the input shapes in parameter order, tuples flattened; out[]: the
 * output shapes, likewise. */
AXON_FN int axon_tmpl_shape(const axon_shape in[], axon_shape out[], axon_error *err)
{
    return axon_tmpl_solve(in, out, NULL, NULL, NULL, NULL, err);
}

/* @RUN_SOLVE@ */
/* Checks the inputs and fills *plan. */
AXON_FN int axon_tmpl_prepare(const axon_shape in[], axon_tmpl_plan *plan, axon_error *err)
{
    const axon_shape none = { 0, { 0 } };
    int status;
    for (int i = 0; i < AXON_TMPL_NUM_OUTPUTS; i++)
        plan->out[i] = plan->out_max[i] = none;     /* defined even where a check returns early */
    for (int i = 0; i < AXON_TMPL_NUM_TEMPS; i++)
        plan->tmp[i] = plan->tmp_max[i] = none;
    {
        /* dims too (all zero), so that reading it after a successful
         * prepare() is defined to every compiler's flow analysis */
        unsigned char *z = (unsigned char *)&plan->dims;
        for (unsigned long i = 0; i < (unsigned long)sizeof plan->dims; i++)
            z[i] = 0;
    }
    status = axon_tmpl_solve(in, plan->out, plan->tmp, &plan->dims, plan->out_max, plan->tmp_max, err);
    if (status != AXON_OK)
        return status;
    (void)plan; /* @COUNTS@ */
    plan->workspace_bytes = 0; /* @RUN_PREPARE@ */
    return AXON_OK;
}
/* @RUN_DECL@ */

/* The name of intermediate tensor i (plan->tmp[i]), or NULL. */
AXON_FN const char *axon_tmpl_temp_name(int i)
{
    switch (i) {
    default: break; /* @TEMP_NAMES@ */
    }
    return NULL;
}
/* ==== axon function end ==== */
