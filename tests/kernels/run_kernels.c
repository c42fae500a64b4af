/* run_kernels.c - the driver of the kernel tests (README.md in this
 * directory): every template of runtime/kernels/ instantiated for every
 * supported element type, as a generated header does; reads cases from
 * stdin (written by kernels.py), runs each kernel call on the buffers and
 * views the case describes, and writes what the call left in every buffer.
 *
 * A case is one line of whitespace-separated tokens:
 *
 *     KERNEL TYPE TYPE2 NPARAMS PARAM... NBUFS (BTYPE NELEM HEX...)... NVIEWS
 *         (BUF OFFSET RANK DIM... STRIDE...)...
 *
 * TYPE (TYPE2: convert's target) names an element type; a buffer's
 * elements are their bit patterns in hex; a view's offset and strides are
 * in elements of its buffer's type.  For each case it writes
 *
 *     R STATUS RET CANARY ERR.STATUS ERR.LINE ERR.COLUMN|ERR.MESSAGE
 *     B HEX...                      (one line per buffer, in order)
 *     V OFFSET RANK DIM... STRIDE...  (the view helpers only)
 *     O OFFSET...                   (the workspace plan only)
 *
 * CANARY is 1 when the 64 bytes on each side of every buffer are intact.
 * Under AddressSanitizer those bytes are poisoned during the call, so that
 * a read outside the buffers stops the driver too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/axon_runtime.h"
#include "runtime/kernels/kernels.h"
#include "runtime/kernels/types.h"
#include "runtime/kernels/tensor.c"
#include "runtime/kernels/convert.c"
#include "runtime/kernels/workspace.c"

#include "tests/kernels/canary.h"

/* ---- the instantiations: every template for every type ------------------ */

#define KT_TYPE BOOL
#define AXON_K(n) axon__k_##n##_bool
#include "tests/kernels/instantiate.h"

#define KT_TYPE I8
#define AXON_K(n) axon__k_##n##_i8
#include "tests/kernels/instantiate.h"

#define KT_TYPE I16
#define AXON_K(n) axon__k_##n##_i16
#include "tests/kernels/instantiate.h"

#define KT_TYPE I32
#define AXON_K(n) axon__k_##n##_i32
#include "tests/kernels/instantiate.h"

#define KT_TYPE I64
#define AXON_K(n) axon__k_##n##_i64
#include "tests/kernels/instantiate.h"

#define KT_TYPE U8
#define AXON_K(n) axon__k_##n##_u8
#include "tests/kernels/instantiate.h"

#define KT_TYPE U16
#define AXON_K(n) axon__k_##n##_u16
#include "tests/kernels/instantiate.h"

#define KT_TYPE U32
#define AXON_K(n) axon__k_##n##_u32
#include "tests/kernels/instantiate.h"

#define KT_TYPE F16
#define AXON_K(n) axon__k_##n##_f16
#include "tests/kernels/instantiate.h"

#define KT_TYPE BF16
#define AXON_K(n) axon__k_##n##_bf16
#include "tests/kernels/instantiate.h"

#define KT_TYPE F32
#define AXON_K(n) axon__k_##n##_f32
#include "tests/kernels/instantiate.h"

#define KT_TYPE F64
#define AXON_K(n) axon__k_##n##_f64
#include "tests/kernels/instantiate.h"

/* ---- the kernels of one type, by pointer -------------------------------- */

typedef const axon_tensor cten;
typedef struct kfns {
    void (*unary)(int, cten *, cten *);
    int (*binary)(int, cten *, cten *, cten *, const axon__site *, axon_error *);
    void (*compare)(int, cten *, cten *, cten *);
    void (*select)(cten *, cten *, cten *, cten *);
    void (*copy)(cten *, cten *);
    void (*fill_i)(cten *, int64_t);
    void (*fill_f)(cten *, double);
    void (*arange)(cten *);
    void (*matmul)(cten *, cten *, cten *);
    void (*einsum)(int, const axon_tensor *const[], const int *const[], cten *, const int *, int,
                   const int64_t *);
    void (*reduce)(int, cten *, cten *);
    int (*argmax)(cten *, cten *, const axon__site *, axon_error *);
    void (*conv2d)(cten *, cten *, cten *, const int64_t[2], const int64_t[2], const int64_t[2], int64_t);
    void (*pool2d)(int, cten *, cten *, const int64_t[2], const int64_t[2], const int64_t[2]);
    void (*upsample2d)(cten *, cten *, const int64_t[2]);
    void (*softmax)(int, cten *, cten *);
    void (*layernorm)(cten *, cten *, cten *, cten *);
    int (*gather)(cten *, cten *, cten *, const axon__site *, axon_error *);
    void (*topk)(cten *, cten *, cten *);
    int64_t (*nonzero)(cten *, cten *);
} kfns;

#define FNS(s, fi, ff)                                                                          \
    { axon__k_unary_##s, axon__k_binary_##s, axon__k_compare_##s, axon__k_select_##s,           \
      axon__k_copy_##s, fi, ff, axon__k_arange_##s, axon__k_matmul_##s, axon__k_einsum_##s,     \
      axon__k_reduce_##s, axon__k_argmax_##s, axon__k_conv2d_##s, axon__k_pool2d_##s,           \
      axon__k_upsample2d_##s, axon__k_softmax_##s, axon__k_layernorm_##s, axon__k_gather_##s,   \
      axon__k_topk_##s, axon__k_nonzero_##s }
#define FNS_I(s) FNS(s, axon__k_fill_##s, NULL)
#define FNS_F(s) FNS(s, NULL, axon__k_fill_##s)

static const struct {
    const char *name;
    int code;
    kfns fns;
} types[] = {
    { "bool", AXON_ELEM_BOOL, FNS_I(bool) }, { "i8", AXON_ELEM_I8, FNS_I(i8) },
    { "i16", AXON_ELEM_I16, FNS_I(i16) },    { "i32", AXON_ELEM_I32, FNS_I(i32) },
    { "i64", AXON_ELEM_I64, FNS_I(i64) },    { "u8", AXON_ELEM_U8, FNS_I(u8) },
    { "u16", AXON_ELEM_U16, FNS_I(u16) },    { "u32", AXON_ELEM_U32, FNS_I(u32) },
    { "f16", AXON_ELEM_F16, FNS_F(f16) },    { "bf16", AXON_ELEM_BF16, FNS_F(bf16) },
    { "f32", AXON_ELEM_F32, FNS_F(f32) },    { "f64", AXON_ELEM_F64, FNS_F(f64) },
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

/* ---- input -------------------------------------------------------------- */

static char *input, *cursor;

static void die(const char *what)
{
    fprintf(stderr, "run_kernels: %s\n", what);
    exit(2);
}

/* The next token, or NULL at the end. */
static const char *token(void)
{
    char *t;
    while (*cursor == ' ' || *cursor == '\n' || *cursor == '\t' || *cursor == '\r')
        cursor++;
    if (!*cursor)
        return NULL;
    t = cursor;
    while (*cursor && *cursor != ' ' && *cursor != '\n' && *cursor != '\t' && *cursor != '\r')
        cursor++;
    if (*cursor)
        *cursor++ = '\0';
    return t;
}

static const char *need(void)
{
    const char *t = token();
    if (!t)
        die("unexpected end of input");
    return t;
}

static int64_t num(void)
{
    return strtoll(need(), NULL, 10);
}

static int type_index(const char *name)
{
    for (int i = 0; i < NTYPES; i++)
        if (strcmp(types[i].name, name) == 0)
            return i;
    die("unknown type");
    return -1;
}

/* ---- buffers, with canaries ------------------------------------------- */

#define MAXBUF 8
#define MAXPARAM 1024

typedef struct buffer {
    int type;                   /* index into types[] */
    int64_t n, size;            /* elements, bytes of one */
    unsigned char *block;       /* CANARY + n * size + CANARY bytes */
} buffer;

static void *buf_data(const buffer *b)
{
    return b->block + CANARY;
}

static void buf_read(buffer *b)
{
    unsigned char *d;
    b->type = type_index(need());
    b->n = num();
    b->size = axon__elem_size(types[b->type].code);
    b->block = (unsigned char *)malloc((size_t)(2 * CANARY + b->n * b->size));
    if (!b->block)
        die("out of memory");
    canary_set(b->block, b->n * b->size);
    d = (unsigned char *)buf_data(b);
    for (int64_t i = 0; i < b->n; i++) {
        uint64_t v = strtoull(need(), NULL, 16);
        for (int64_t k = 0; k < b->size; k++)       /* little-endian bytes of v */
            d[i * b->size + k] = (unsigned char)(v >> (8 * k));
    }
}

static int buf_canary_ok(const buffer *b)
{
    return canary_ok(b->block, b->n * b->size);
}

static void buf_write(const buffer *b)
{
    const unsigned char *d = (const unsigned char *)buf_data(b);
    putchar('B');
    for (int64_t i = 0; i < b->n; i++) {
        uint64_t v = 0;
        for (int64_t k = 0; k < b->size; k++)
            v |= (uint64_t)d[i * b->size + k] << (8 * k);
        printf(" %llx", (unsigned long long)v);
    }
    putchar('\n');
}

static void poison(buffer *b, int n, int on)
{
    for (int i = 0; i < n; i++)
        canary_poison(b[i].block, b[i].n * b[i].size, on);
}

/* ---- one case ----------------------------------------------------------- */

static const axon__site div_site = { 7, 9, "integer division by zero at element {}" };
static const axon__site gather_site = { 11, 13, "index {} (at {}) is outside [0, {})" };
static const axon__site argmax_site = { 17, 19, "argmax over an empty axis" };

static void write_view(const axon_tensor *v, const buffer *b)
{
    long long off = (long long)(((const char *)v->data - (const char *)buf_data(b)) / b->size);
    printf("V %lld %d", off, v->rank);
    for (int i = 0; i < v->rank; i++)
        printf(" %lld", (long long)v->dims[i]);
    for (int i = 0; i < v->rank; i++)
        printf(" %lld", (long long)v->strides[i]);
    putchar('\n');
}

static int run_case(const char *kernel)
{
    int t = type_index(need()), t2 = type_index(need());
    const kfns *k = &types[t].fns;
    int64_t p[MAXPARAM];
    int np = (int)num(), nb, nv, status = AXON_OK, canary = 1;
    long long ret = 0;
    buffer b[MAXBUF];
    axon_tensor v[MAXBUF], view;
    axon_error err;
    int extra = 0;              /* 1: print `view`; 2: print offsets */
    int64_t offsets[MAXPARAM];
    int order[MAXPARAM];

    if (np > MAXPARAM)
        die("too many parameters");
    for (int i = 0; i < np; i++)
        p[i] = num();
    nb = (int)num();
    if (nb > MAXBUF)
        die("too many buffers");
    for (int i = 0; i < nb; i++)
        buf_read(&b[i]);
    nv = (int)num();
    if (nv > MAXBUF)
        die("too many views");
    for (int i = 0; i < nv; i++) {
        int bi = (int)num();
        int64_t off = num();
        v[i].rank = (int)num();
        if (bi < 0 || bi >= nb || v[i].rank < 0 || v[i].rank > AXON_MAX_RANK)
            die("bad view");
        for (int j = 0; j < v[i].rank; j++)
            v[i].dims[j] = num();
        for (int j = 0; j < v[i].rank; j++)
            v[i].strides[j] = num();
        v[i].data = (char *)buf_data(&b[bi]) + off * b[bi].size;
    }
    memset(&err, 0, sizeof err);
    poison(b, nb, 1);

    if (strcmp(kernel, "unary") == 0) {
        k->unary((int)p[0], &v[0], &v[1]);
    } else if (strcmp(kernel, "binary") == 0) {
        status = k->binary((int)p[0], &v[0], &v[1], &v[2], &div_site, &err);
    } else if (strcmp(kernel, "compare") == 0) {
        k->compare((int)p[0], &v[0], &v[1], &v[2]);
    } else if (strcmp(kernel, "select") == 0) {
        k->select(&v[0], &v[1], &v[2], &v[3]);
    } else if (strcmp(kernel, "copy") == 0) {
        k->copy(&v[0], &v[1]);
    } else if (strcmp(kernel, "fill") == 0) {
        if (k->fill_f) {
            double d;
            uint64_t bits = (uint64_t)p[0];
            memcpy(&d, &bits, sizeof d);
            k->fill_f(&v[0], d);
        } else {
            k->fill_i(&v[0], p[0]);
        }
    } else if (strcmp(kernel, "arange") == 0) {
        k->arange(&v[0]);
    } else if (strcmp(kernel, "matmul") == 0) {
        k->matmul(&v[0], &v[1], &v[2]);
    } else if (strcmp(kernel, "einsum") == 0) {
        /* nops, nlabels, label_dims..., op labels..., out labels... */
        int nops = (int)p[0], nl = (int)p[1], at = 2 + nl;
        int lab[3][AXON_MAX_RANK];
        const int *labs[2];
        const axon_tensor *ops[2];
        for (int i = 0; i <= nops; i++)
            for (int j = 0; j < v[i].rank; j++)
                lab[i][j] = (int)p[at++];
        for (int i = 0; i < nops; i++) {
            ops[i] = &v[i];
            labs[i] = lab[i];
        }
        k->einsum(nops, ops, labs, &v[nops], lab[nops], nl, p + 2);
    } else if (strcmp(kernel, "reduce") == 0) {
        k->reduce((int)p[0], &v[0], &v[1]);
    } else if (strcmp(kernel, "argmax") == 0) {
        status = k->argmax(&v[0], &v[1], &argmax_site, &err);
    } else if (strcmp(kernel, "conv2d") == 0) {
        k->conv2d(&v[0], &v[1], &v[2], p, p + 2, p + 4, p[6]);
    } else if (strcmp(kernel, "pool2d") == 0) {
        k->pool2d((int)p[0], &v[0], &v[1], p + 1, p + 3, p + 5);
    } else if (strcmp(kernel, "upsample2d") == 0) {
        k->upsample2d(&v[0], &v[1], p);
    } else if (strcmp(kernel, "softmax") == 0) {
        k->softmax((int)p[0], &v[0], &v[1]);
    } else if (strcmp(kernel, "layernorm") == 0) {
        k->layernorm(&v[0], &v[1], &v[2], &v[3]);
    } else if (strcmp(kernel, "gather") == 0) {
        status = k->gather(&v[0], &v[1], &v[2], &gather_site, &err);
    } else if (strcmp(kernel, "topk") == 0) {
        k->topk(&v[0], &v[1], &v[2]);
    } else if (strcmp(kernel, "nonzero") == 0) {
        ret = (long long)k->nonzero(&v[0], &v[1]);
    } else if (strcmp(kernel, "convert") == 0) {
        axon__convert(&v[0], types[t].code, &v[1], types[t2].code);
    } else if (strcmp(kernel, "plan") == 0) {
        int n = (int)p[0];
        int fl[2][MAXPARAM];
        for (int i = 0; i < n; i++) {
            fl[0][i] = (int)p[1 + n + i];
            fl[1][i] = (int)p[1 + 2 * n + i];
        }
        ret = (long long)axon__plan_workspace(n, p + 1, fl[0], fl[1], offsets, order);
        extra = 2;
    } else if (strncmp(kernel, "view_", 5) == 0) {
        /* the last parameter: 1 to make the view in place (view == x) */
        const char *w = kernel + 5;
        axon_tensor *dst = p[np - 1] ? &v[0] : &view;
        int64_t es = b[0].size;
        extra = 1;
        if (strcmp(w, "broadcast") == 0) {
            axon_shape s;
            s.rank = (int)p[0];
            for (int i = 0; i < s.rank; i++)
                s.dims[i] = p[1 + i];
            axon__broadcast_view(&v[0], &s, dst);
        } else if (strcmp(w, "dense") == 0) {
            axon_shape s;
            s.rank = (int)p[0];
            for (int i = 0; i < s.rank; i++)
                s.dims[i] = p[1 + i];
            axon__dense_view(v[0].data, es, &s, dst);
        } else if (strcmp(w, "is_dense") == 0) {
            ret = axon__is_dense(&v[0]);
            view = v[0];
            dst = &view;
        } else if (strcmp(w, "index") == 0) {
            axon__index_view(&v[0], p[0], es, dst);
        } else if (strcmp(w, "slice") == 0) {
            axon__slice_view(&v[0], (int)p[0], p[1], p[2], es, dst);
        } else if (strcmp(w, "swap") == 0) {
            axon__swap_view(&v[0], (int)p[0], (int)p[1], dst);
        } else if (strcmp(w, "reverse") == 0) {
            axon__reverse_view(&v[0], es, dst);
        } else if (strcmp(w, "unit") == 0) {
            axon__unit_view(&v[0], (int)p[0], dst);
        } else if (strcmp(w, "diagonal") == 0) {
            axon__diagonal_view(&v[0], (int)p[0], (int)p[1], dst);
        } else if (strcmp(w, "permute") == 0) {
            int perm[AXON_MAX_RANK];
            for (int i = 0; i < v[0].rank; i++)
                perm[i] = (int)p[i];
            axon__permute_view(&v[0], perm, dst);
        } else {
            die("unknown view helper");
        }
        if (dst != &view)
            view = *dst;
    } else {
        die("unknown kernel");
    }

    poison(b, nb, 0);
    for (int i = 0; i < nb; i++)
        canary &= buf_canary_ok(&b[i]);
    printf("R %d %lld %d %d %d %d|%s\n", status, ret, canary, err.status, err.line, err.column,
           status != AXON_OK ? err.message : "");
    for (int i = 0; i < nb; i++) {
        buf_write(&b[i]);
        free(b[i].block);
    }
    if (extra == 1)
        write_view(&view, &b[0]);
    if (extra == 2) {
        putchar('O');
        for (int i = 0; i < (int)p[0]; i++)
            printf(" %lld", (long long)offsets[i]);
        putchar('\n');
    }
    fflush(stdout);             /* (a sanitizer's abort loses no finished case) */
    return 0;
}

int main(void)
{
    size_t cap = 1 << 20, len = 0;
    const char *kernel;
    input = (char *)malloc(cap);
    for (;;) {
        size_t got;
        if (len + 1 >= cap) {
            cap *= 2;
            input = (char *)realloc(input, cap);
        }
        if (!input)
            die("out of memory");
        got = fread(input + len, 1, cap - 1 - len, stdin);
        if (got == 0)
            break;
        len += got;
    }
    input[len] = '\0';
    cursor = input;
    while ((kernel = token()) != NULL)
        run_case(kernel);
    free(input);
    return 0;
}
