/* emit_kernels.c - the header's shared parts of run() (emit_kernels.h): the
 * kernels' interface, the workspace planner, the externs' table, and the
 * kernel files the header's functions call (kernels.h), each once per
 * element type. */
#include "emit_kernels.h"

#include <string.h>

#include "cnames.h"
#include "symtab.h"
#include "types.h"

extern const char axon_kernels_h[], axon_k_types[], axon_k_tensor[], axon_k_convert[], axon_k_workspace[],
    axon_k_elementwise[], axon_k_matmul[], axon_k_einsum[], axon_k_reduce[], axon_k_conv[], axon_k_pool[],
    axon_k_norm[], axon_k_index[], axon_run_spec[];
extern const char axon_run_fused[];
extern const char axon_fast_h[], axon_f_gemm[], axon_f_matmul[], axon_f_vec[], axon_f_conv[], axon_f_pool[],
    axon_f_norm[], axon_f_reduce[];


/* ---- the shared parts ------------------------------------------------------- */

static void put_file(Buf *out, const char *text)
{
    buf_puts(out, text);
    if (out->n && out->p[out->n - 1] != '\n')
        buf_putc(out, '\n');
}

void emit_run_shared(Compilation *cp, const RunKernels *k, const char *prefix, Buf *out)
{
    if (!k->any)
        return;
    buf_puts(out, "#ifndef AXON_KERNELS_H\n");
    put_file(out, axon_kernels_h);
    buf_puts(out, "#endif\n");
    /* (prepare() calls the planner: host and device code, as prepare is) */
    buf_puts(out, "#ifndef AXON__WORKSPACE_C_1\n#define AXON__WORKSPACE_C_1\n#undef AXON_RUN_FN\n"
                  "#define AXON_RUN_FN AXON_FN\n");
    put_file(out, axon_k_workspace);
    buf_puts(out, "#undef AXON_RUN_FN\n#if defined(__CUDACC__)\n#define AXON_RUN_FN static inline __host__\n#else\n"
                  "#define AXON_RUN_FN static inline\n#endif\n#endif\n");
    buf_printf(out, "#if defined(__cplusplus)\n#define AXON_RUN_API extern \"C\"\n#else\n#define AXON_RUN_API\n#endif\n");
    /* (what prepare() needs of the fast kernels: their scratch) */
    int fast_any = 0;
    for (int i = 0; i < FF_COUNT; i++)
        fast_any |= k->fast[i];
    if (fast_any) {
        buf_puts(out, "#ifndef AXON_NO_FAST\n");
        put_file(out, axon_fast_h);
        buf_puts(out, "#endif\n");
    }
    if (k->externs.n) {
        buf_printf(out, "\n/* The externs that run() calls: fill one and pass it to run() (docs/c-api.md).\n"
                        " * Each gets its operands (a dims operand: data NULL, its values as dims) and\n"
                        " * its outputs, shaped and with room, to fill; it returns AXON_OK or a status\n"
                        " * with *err filled. */\n");
        buf_printf(out, "typedef struct %s_externs {\n    void *ctx;\n", prefix);
        /* (in the order the program declares them; k->externs by name,
         * not searched for each item: N externs were N * N) */
        Symtab used;
        st_init(&used, &cp->arena);
        for (int i = 0; i < k->externs.n; i++)
            st_put(&used, ((Item *)k->externs.items[i])->name, k->externs.items[i]);
        for (int j = 0; j < cp->checked.bindings.n; j++) {
            Item *it = ((Binding *)cp->checked.bindings.items[j])->item;
            if (st_get(&used, it->name) != it)
                continue;
            buf_printf(out, "    int (*%s)(void *ctx, const axon_tensor *in, int nin, const axon_tensor *out, int nout,\n"
                            "        axon_error *err);\n", cn_spell(&cp->arena, it->name, CN_FUNCTION));
        }
        buf_printf(out, "} %s_externs;\n", prefix);
    }
}

/* The fast f32 files that the header's run() calls (after the references
 * they fall back to), each once per translation unit; none where
 * AXON_NO_FAST is defined. */
static void emit_fast_kernels(const RunKernels *k, Buf *out)
{
    int mm = k->fast[FF_MATMUL], cv = k->fast[FF_CONV], pl = k->fast[FF_POOL], nm = k->fast[FF_NORM];
    int rd = k->fast[FF_REDUCE];
    const struct { int use; const char *guard; const char *text; } files[] = {
        { mm || cv, "GEMM", axon_f_gemm },
        { mm, "MATMUL", axon_f_matmul },
        { cv || pl || nm || rd, "VEC", axon_f_vec },
        { cv, "CONV", axon_f_conv },
        { pl, "POOL", axon_f_pool },
        { nm, "NORM", axon_f_norm },
        { rd, "REDUCE", axon_f_reduce },
    };
    if (!(mm || cv || pl || nm || rd))
        return;
    buf_puts(out, "#ifndef AXON_NO_FAST\n");
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (!files[i].use)
            continue;
        buf_printf(out, "#ifndef AXON__FAST_%s_1\n#define AXON__FAST_%s_1\n", files[i].guard, files[i].guard);
        put_file(out, files[i].text);
        buf_puts(out, "#endif\n");
    }
    buf_puts(out, "#endif\n");
}

void emit_run_kernels(Compilation *cp, const RunKernels *k, Buf *out)
{
    (void)cp;
    const char *texts[KF_COUNT] = { axon_k_elementwise, axon_k_matmul, axon_k_einsum, axon_k_reduce,
                                    axon_k_conv, axon_k_pool, axon_k_norm, axon_k_index };
    buf_puts(out, "#ifndef AXON__KERNELS_SHARED_1\n#define AXON__KERNELS_SHARED_1\n");
    buf_puts(out, "#include <math.h>\n");
    put_file(out, axon_k_types);
    put_file(out, axon_k_tensor);
    put_file(out, axon_k_convert);
    put_file(out, axon_run_spec);
    put_file(out, axon_run_fused);
    buf_puts(out, "#endif\n");
    for (int f = 0; f < KF_COUNT; f++)
        for (int e = 0; e < EL_DIMS; e++) {
            if (!k->need[f][e])
                continue;
            const char *t = elem_name(e);
            char up[8];
            size_t i = 0;
            for (; t[i] && i < sizeof up - 1; i++)
                up[i] = (char)(t[i] >= 'a' && t[i] <= 'z' ? t[i] - 'a' + 'A' : t[i]);
            up[i] = 0;
            buf_printf(out, "#ifndef AXON__K_%s_%s_1\n#define AXON__K_%s_%s_1\n", kernels_file_names[f], up, kernels_file_names[f], up);
            buf_printf(out, "#define AXON_T AXON__%s_T\n#define AXON_K(n) axon__k_##n##_%s\n", up, t);
            buf_printf(out, "#define AXON_FLT AXON__%s_FLT\n#define AXON_ACC AXON__%s_ACC\n", up, up);
            buf_printf(out, "#define AXON_LD AXON__%s_LD\n#define AXON_ST AXON__%s_ST\n", up, up);
            buf_printf(out, "#define AXON_TYPE AXON__%s_TYPE\n", up);
            put_file(out, texts[f]);
            buf_puts(out, "#undef AXON_T\n#undef AXON_K\n#undef AXON_FLT\n#undef AXON_ACC\n#undef AXON_LD\n"
                          "#undef AXON_ST\n#undef AXON_TYPE\n#endif\n");
        }
    emit_fast_kernels(k, out);
}