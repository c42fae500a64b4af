/* oracle.h - an independent model of Axon's shape rules on concrete shapes,
 * for the randomised differential test (random.test).
 *
 * It does not include or share anything with the headers that axonc
 * generates: its own shape type, its own checked arithmetic, one function
 * per built-in rule (spec section 5, paper section 3.3) and, per test
 * function, a composition of those rules that follows the function's body
 * in Inputs/{linalg,spatial,pointwise}.axon, plus the checks that its
 * annotations imply.
 */
#ifndef ORACLE_H
#define ORACLE_H

#include <stdint.h>

#define OR_MAX_RANK 8 /* must equal the headers' AXON_MAX_RANK */
#define OR_MAX_IO 5   /* most inputs (or outputs) of a function */
#define OR_MAX_TMP 8  /* most intermediates of a function */

typedef struct or_shape {
    int rank;
    int64_t d[OR_MAX_RANK];
} or_shape;

/* Verdicts. */
enum {
    OR_VALID = 0,    /* every rule holds; out[] (and tmp[]) computed */
    OR_INVALID = 1,  /* some rule fails (in exact arithmetic) */
    OR_OVERFLOW = 2, /* every rule holds, but some size exceeds INT64_MAX */
    OR_EITHER = 3    /* a size exceeded INT64_MAX and a later rule compares
                        it in a way that checked int64 arithmetic cannot
                        decide: invalid or overflow, but certainly an error */
};

/* One test function: in[] in parameter order (tuples flattened), out[] and
 * tmp[] (every intermediate, named or not, in the order of tmp_names) filled
 * when the verdict is OR_VALID.
 * The intermediates, in the header's order: for each statement `pat = value;`
 * the operator applications (calls, + - * /, unary minus) whose value is a
 * tensor inside value (not value itself, nor a top tuple's items, nor
 * anything inside a lambda), operands first, left to right; then the
 * statement's names bound to tensors (not the value returned); then those
 * inside the body's last expression.  Unnamed ones are called "OP at
 * LINE:COL": OP the callee, at its name, or add/sub/mul/div/neg, at the
 * operator (1-based, in the .axon file). */
typedef int (*or_fn)(const or_shape *in, or_shape *out, or_shape *tmp);

typedef struct or_entry {
    const char *name; /* "file.function" */
    int nin, nout, ntmp;
    const char *tmp_names[OR_MAX_TMP];
    or_fn fn;
} or_entry;

/* The oracle for "file.function", or NULL. */
const or_entry *or_lookup(const char *name);

/* Checked product of the sizes of s, times elem_size: OR_VALID with
 * *elements and *bytes, or OR_OVERFLOW. */
int or_count(const or_shape *s, int64_t elem_size, int64_t *elements, int64_t *bytes);

#endif
