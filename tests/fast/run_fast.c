/* run_fast.c - the driver of the fast-path tests (README.md in this
 * directory): runtime/fast/gemm.c and matmul.c compiled as a generated
 * header has them (after axon_runtime.h, kernels.h, types.h, tensor.c and
 * the f32 reference templates), on cases read from stdin (written by
 * fast.py); for each, the fast kernel and its reference run on copies of
 * the same buffers, and both results come back.
 *
 *     run_fast --config      prints "MR NR MC KC NC VB THREADS" and exits
 *
 * A case is a text line and then binary data:
 *
 *     KIND ACC SALIGN NLABELS LD... NOPS  (NELEM OFF RANK DIM... STRIDE... LABEL...) x 3
 *
 * KIND sgemm (the views are a [m, k], b [k, n], c [m, n]), matmul (kernels.h's
 * views: the batch axes, then [m, k], [k, n], [m, n]) or einsum (NOPS 1 or
 * 2, labels as kernels.h's einsum; with 1, the second view is unused);
 * ACC: sgemm's accumulate; SALIGN: the scratch starts that many bytes past
 * a 64-byte boundary; LD: the label sizes (einsum).  Then the three
 * buffers' elements (float32, little-endian, NELEM of each) follow.  The
 * driver answers
 *
 *     R CANARY SCRATCH_BYTES
 *
 * and the third buffer twice in binary: as the fast kernel left it, as the
 * reference left it (sgemm's reference: kernels.h's matmul into a dense
 * buffer, added to the third buffer's elements in float when ACC).
 * CANARY is 1 when the 64 bytes on each side of every buffer, the scratch
 * included, are intact and the inputs unchanged.  Under AddressSanitizer
 * those bytes are poisoned during the fast call, so that a read outside
 * the operands or the scratch stops the driver too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/axon_runtime.h"
#include "runtime/kernels/kernels.h"
#include "runtime/kernels/types.h"
#include "runtime/kernels/tensor.c"

#define KT_TYPE F32
#define AXON_K(n) axon__k_##n##_f32
#define KT_TEMPLATES (KT_MATMUL | KT_EINSUM)
#include "tests/kernels/instantiate.h"

#include "runtime/fast/fast.h"
#include "runtime/fast/gemm.c"
#include "runtime/fast/matmul.c"

#include "tests/kernels/canary.h"

#ifdef __CUDACC__
/* The scratch functions are AXON_FN: prepare() calls them on the device
 * too (never launched; it has to compile). */
__global__ void scratch_on_device(const axon_shape *s, int64_t *bytes)
{
    bytes[0] = axon__gemm_scratch(s[0].dims[0], s[1].dims[1], s[0].dims[1]);
    bytes[1] = axon__f_matmul_scratch(&s[0], &s[1], &s[2]);
    bytes[2] = axon__f_einsum_scratch(2, &s[0], &s[1], &s[2]);
}
#endif

/* A buffer of n bytes between two canaries; its data starts `shift`
 * bytes past a 64-byte boundary. */
typedef struct buffer {
    unsigned char *raw, *block;     /* the allocation; the first canary */
    int64_t n;
} buffer;

static void buf_init(buffer *b, int64_t n, int64_t shift)
{
    uintptr_t u;
    b->n = n;
    b->raw = (unsigned char *)malloc((size_t)(2 * CANARY + 128 + n));
    if (!b->raw) {
        fprintf(stderr, "run_fast: out of memory\n");
        exit(2);
    }
    u = (uintptr_t)(b->raw + CANARY);
    b->block = b->raw + (64 - u % 64) % 64 + shift % 64;
    canary_set(b->block, n);
}

static unsigned char *buf_data(const buffer *b)
{
    return b->block + CANARY;
}

static void buf_free(buffer *b)
{
    free(b->raw);
}

static int buf_canary_ok(const buffer *b)
{
    return canary_ok(b->block, b->n);
}

static void poison(buffer *b, int n, int on)
{
    for (int i = 0; i < n; i++)
        canary_poison(b[i].block, b[i].n, on);
}

static int64_t num(void)
{
    long long v;
    if (scanf("%lld", &v) != 1) {
        fprintf(stderr, "run_fast: malformed case\n");
        exit(2);
    }
    return (int64_t)v;
}

static void read_floats(unsigned char *dst, int64_t n)
{
    if (n > 0 && fread(dst, sizeof(float), (size_t)n, stdin) != (size_t)n) {
        fprintf(stderr, "run_fast: short data\n");
        exit(2);
    }
}

static void write_floats(const unsigned char *src, int64_t n)
{
    if (n > 0)
        fwrite(src, sizeof(float), (size_t)n, stdout);
}

int main(int argc, char **argv)
{
    char kind[16];
    if (argc > 1 && !strcmp(argv[1], "--config")) {
        int threads = 1;
#ifdef _OPENMP
        threads = omp_get_max_threads();
#endif
        printf("%d %d %d %d %d %d %d\n", AXON__GEMM_MR, AXON__GEMM_NR, AXON__GEMM_MC, AXON__GEMM_KC,
               AXON__GEMM_NC, AXON__GEMM_VB, threads);
        return 0;
    }
    while (scanf("%15s", kind) == 1) {
        int acc = (int)num(), salign = (int)num(), nlabels = (int)num();
        int64_t ld[64];
        int nops, lab[3][AXON_MAX_RANK];
        int64_t nel[3];
        axon_tensor v[3];
        buffer buf[4];
        float *ref;
        int64_t scratch_bytes = 0;
        int canary = 1;
        unsigned char *save[2];
        if (nlabels < 0 || nlabels > 64) {
            fprintf(stderr, "run_fast: bad label count\n");
            return 2;
        }
        for (int l = 0; l < nlabels; l++)
            ld[l] = num();
        nops = (int)num();
        for (int t = 0; t < 3; t++) {
            int64_t off;
            nel[t] = num();
            off = num();
            v[t].rank = (int)num();
            if (v[t].rank < 0 || v[t].rank > AXON_MAX_RANK) {
                fprintf(stderr, "run_fast: bad rank\n");
                return 2;
            }
            for (int j = 0; j < v[t].rank; j++)
                v[t].dims[j] = num();
            for (int j = 0; j < v[t].rank; j++)
                v[t].strides[j] = num();
            for (int j = 0; j < v[t].rank; j++)
                lab[t][j] = (int)num();
            buf_init(&buf[t], nel[t] * (int64_t)sizeof(float), 0);
            v[t].data = buf_data(&buf[t]) + off * (int64_t)sizeof(float);
        }
        if (getchar() != '\n') {
            fprintf(stderr, "run_fast: no newline before the data\n");
            return 2;
        }
        for (int t = 0; t < 3; t++)
            read_floats(buf_data(&buf[t]), nel[t]);
        /* the reference's copy of the third buffer, and the inputs' */
        ref = (float *)malloc((size_t)(nel[2] > 0 ? nel[2] : 1) * sizeof(float));
        memcpy(ref, buf_data(&buf[2]), (size_t)nel[2] * sizeof(float));
        for (int t = 0; t < 2; t++) {
            save[t] = (unsigned char *)malloc((size_t)(nel[t] > 0 ? nel[t] : 1) * sizeof(float));
            memcpy(save[t], buf_data(&buf[t]), (size_t)nel[t] * sizeof(float));
        }

        /* the scratch, as prepare() would size it */
        if (!strcmp(kind, "sgemm")) {
            scratch_bytes = axon__gemm_scratch(v[2].dims[0], v[2].dims[1], v[0].dims[1]);
        } else {
            axon_shape s[3];
            for (int t = 0; t < 3; t++) {
                s[t].rank = v[t].rank;
                for (int j = 0; j < v[t].rank; j++)
                    s[t].dims[j] = v[t].dims[j];
            }
            if (!strcmp(kind, "matmul"))
                scratch_bytes = axon__f_matmul_scratch(&s[0], &s[1], &s[2]);
            else
                scratch_bytes = axon__f_einsum_scratch(nops, &s[0], &s[1], &s[2]);
        }
        buf_init(&buf[3], scratch_bytes, salign);

        poison(buf, 4, 1);
        if (!strcmp(kind, "sgemm")) {
            axon__sgemm(v[2].dims[0], v[2].dims[1], v[0].dims[1], (const float *)v[0].data, v[0].strides[0],
                        v[0].strides[1], (const float *)v[1].data, v[1].strides[0], v[1].strides[1],
                        (float *)v[2].data, v[2].strides[0], v[2].strides[1], acc,
                        scratch_bytes ? (void *)buf_data(&buf[3]) : NULL);
        } else if (!strcmp(kind, "matmul")) {
            axon__f_matmul(&v[0], &v[1], &v[2], scratch_bytes ? (void *)buf_data(&buf[3]) : NULL, scratch_bytes);
        } else {
            const axon_tensor *ops[2] = { &v[0], &v[1] };
            const int *labels[2] = { lab[0], lab[1] };
            axon__f_einsum(nops, ops, labels, &v[2], lab[2], nlabels, ld,
                           scratch_bytes ? (void *)buf_data(&buf[3]) : NULL, scratch_bytes);
        }
        poison(buf, 4, 0);
        for (int t = 0; t < 4; t++)
            canary &= buf_canary_ok(&buf[t]);
        for (int t = 0; t < 2; t++)
            canary &= memcmp(save[t], buf_data(&buf[t]), (size_t)nel[t] * sizeof(float)) == 0;

        /* the reference, on the same inputs, into ref */
        {
            axon_tensor o = v[2];
            o.data = (unsigned char *)ref + ((unsigned char *)v[2].data - buf_data(&buf[2]));
            if (!strcmp(kind, "sgemm")) {
                /* kernels.h's matmul into a dense [m, n], then stored (or added) */
                const int64_t m = v[2].dims[0], n = v[2].dims[1];
                float *d = (float *)malloc((size_t)(m * n > 0 ? m * n : 1) * sizeof(float));
                axon_tensor dv;
                dv.data = d;
                dv.rank = 2;
                dv.dims[0] = m;
                dv.dims[1] = n;
                dv.strides[0] = n;
                dv.strides[1] = 1;
                axon__k_matmul_f32(&v[0], &v[1], &dv);
                for (int64_t i = 0; i < m; i++)
                    for (int64_t j = 0; j < n; j++) {
                        float *q = (float *)o.data + i * o.strides[0] + j * o.strides[1];
                        *q = acc ? *q + d[i * n + j] : d[i * n + j];
                    }
                free(d);
            } else if (!strcmp(kind, "matmul")) {
                axon__k_matmul_f32(&v[0], &v[1], &o);
            } else {
                const axon_tensor *ops[2] = { &v[0], &v[1] };
                const int *labels[2] = { lab[0], lab[1] };
                axon__k_einsum_f32(nops, ops, labels, &o, lab[2], nlabels, ld);
            }
        }
        printf("R %d %lld\n", canary, (long long)scratch_bytes);
        write_floats(buf_data(&buf[2]), nel[2]);
        write_floats((const unsigned char *)ref, nel[2]);
        fflush(stdout);
        free(ref);
        free(save[0]);
        free(save[1]);
        for (int t = 0; t < 4; t++)
            buf_free(&buf[t]);
    }
    return 0;
}
