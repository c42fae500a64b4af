/* plan_types.h - the run-time plan's terms (plan.h): the tensors of an
 * exported function, the concrete shapes and values the shape function
 * has at run time, what it knows of each variable, and the steps. */
#ifndef AXONC_PLAN_TYPES_H
#define AXONC_PLAN_TYPES_H

#include "dim.h"
#include "print.h"
#include "terms.h"

typedef struct PTensor {    /* an input, output or intermediate tensor */
    const char *desc;       /* "argument 2 (K)", "output 1", "hidden" */
    const Origin *at;       /* an input's parameter (for messages) */
    Type *type;             /* its tensor type */
    const void *pat;        /* an intermediate: the pattern that names it */
    const char *cname;      /* an unnamed intermediate: its index constant's
                             * name ("matmul_4_12" for "matmul at 4:12") */
    const char *bound;      /* the bounds of its data-dependent sizes, as
                             * the header's comment gives them */
} PTensor;

typedef struct PSrc {       /* a concrete shape at run time */
    int input;              /* in[input], or -1 for a computed shape */
    const char *local;      /* the computed shape's local (an axon_shape) */
    const char *desc;       /* "argument 1 (x)", "the broadcast at 3:14" */
    const Origin *why;      /* where a computed shape comes from */
    int ragged;             /* an input with a ragged axis (`*`) */
    int maybe_unknown;      /* a computed shape whose sizes may be unknown */
} PSrc;

typedef struct PPos {       /* an axis: k plus the lengths of some runs */
    int k;
    PtrVec runs;            /* SVar*, each bound to a run (PRun) */
} PPos;

typedef struct PRun {       /* what the plan knows of a shape variable */
    const char *name;       /* locals s_NAME_p (first size), s_NAME_n (count) */
    PSrc *src;              /* a run of this concrete shape; NULL while only
                             * its length is known (rank(p) = k, k known: the
                             * local s_NAME_n), until a match places it */
    PPos off;               /* from this axis */
    PPos rest;              /* its length: src's rank minus these axes */
    const char *from;       /* for messages: "argument 1 (x)" */
} PRun;

typedef struct PVar {       /* what the plan knows of a dimension variable */
    const char *local;      /* the C local holding its value */
    const char *from;       /* for messages: "argument 1 (Q) axis 1" */
    const char *from_idx;   /* that axis as a C expression, when dynamic */
    Dim *src;               /* the dimension node that gave it (why_equal) */
    int validated;          /* its value is known to be >= 0 */
    int maybe_unknown;      /* its value may be AXON_DIM_UNKNOWN: solved from
                             * a product whose other factor is 0 at run time
                             * (then nothing determines it), or from such a
                             * value; what depends on it is then unknown too */
    int assignable;         /* local is the solve's own (a solve's or a bind's,
                             * not run()'s dyn[]): a residual `x = e` may give
                             * it where it is unknown (emit_checks.c, open_var_from) */
    const struct PVal *val; /* a stand-in for a known expression
                             * (plan_known_subst): its value; local unset */
    int since;              /* the step that binds it (plan_var) */
} PVar;

typedef struct PVal {       /* a run-time value an equation is against */
    PSrc *src;              /* an axis of src at pos (axis: its static */
    PPos pos;               /* number, or -1 after a run) ... */
    int axis;
    const char *local;      /* ... or this local (src NULL) */
    const char *where;      /* "argument 1 (x) axis 0", "the broadcast" */
    int nonneg;             /* known to be >= 0 (an input axis) */
    int maybe_unknown;      /* may be AXON_DIM_UNKNOWN (see PVar) */
    int since;              /* Plan.known: the first step that may read it */
    DVar *stand_in;         /* Plan.known: the variable plan_known_subst
                             * puts in its place */
    int hidden;             /* Plan.known: out of sight (plan_hide_known) */
} PVal;

typedef enum {
    PS_RANK,        /* in[input]: rank bounds; then every size >= 0 */
    PS_MATCH,       /* src against a pattern: its rank; the unknown run */
    PS_SAME_RUN,    /* a known run again, at src/pos: compare */
    PS_RAGGED,      /* val must be AXON_DIM_RAGGED */
    PS_CHECK,       /* val must equal the known d */
    PS_BIND,        /* var := val */
    PS_SOLVE,       /* coef * var^pow * K + rest = val: var computed */
    PS_EXISTS,      /* d = val must have a solution in its free unknowns */
    PS_KNOWN,       /* local := val, which is the value of the expression d */
    PS_EVAL,        /* local := the value of the known d */
    PS_BCAST_DIM,   /* local := the broadcast of k's known operands */
    PS_BCAST_SHAPE, /* local shape := the broadcast of k's operands */
    PS_SHAPE,       /* local shape := a known shape */
    PS_EQ_DIM,      /* k: l = r, both known */
    PS_NONNEG,      /* k: l >= 0, known */
    PS_FITS,        /* k: the size d, known, fits in int64 */
    PS_COUNT,       /* local := elements or rank (k's kind) of the known pattern */
    PS_RUN_LEN      /* run's length := the known d (rank(run) = d), a rank */
} PStepKind;

typedef struct PStep {
    PStepKind kind;
    const Origin *why;      /* the rule the step enforces */
    int input;              /* PS_RANK */
    PSrc *src;              /* PS_MATCH, PS_SAME_RUN, PS_BCAST_SHAPE, PS_SHAPE */
    Shape *pattern;         /* PS_MATCH: the pattern; PS_SHAPE, PS_COUNT: the shape */
    int fixed;              /* PS_RANK, PS_MATCH: axes that are sizes */
    PtrVec runs;            /* PS_RANK, PS_MATCH: known runs in the pattern */
    SVar *unknown;          /* PS_RANK, PS_MATCH: the run it binds, if any */
    SVar *run;              /* PS_SAME_RUN: the known run; PS_BCAST_SHAPE: its result;
                             * PS_RUN_LEN: the run */
    PtrVec placed;          /* PS_MATCH: runs of known length it places (SVar*) */
    PPos pos;               /* PS_SAME_RUN: where it occurs again */
    PVal val;               /* the equations */
    Dim *d;                 /* the equations: the dimension, normalised */
    Dim *orig;              /* ... as first made at that place */
    DVar *var;              /* PS_BIND, PS_SOLVE: the variable bound */
    int64_t coef;           /* PS_SOLVE: coef * var^pow * factor + rest */
    uint32_t pow;
    Dim *factor, *rest;     /* PS_SOLVE: known; factor NULL for 1 */
    int nonzero;            /* PS_SOLVE: factor > 0 whatever the sizes */
    Constraint *k;          /* PS_BCAST_*, PS_EQ_DIM, PS_NONNEG, PS_FITS, PS_COUNT;
                             * PS_CHECK of a broadcast's result */
    const char *local;      /* PS_BCAST_*, PS_SHAPE: the local made */
    const char *text;       /* the constraint or equation as printed */
    int sign;               /* PS_EXISTS: see plan.c, exists_rule */
    int raw;                /* sizes read without rewrite rules (a residual
                             * that defines one is judged without it) */
    int ragged;             /* PS_RANK: the input has a ragged axis */
    Dim *other;             /* PS_CHECK of a residual l = r: the side whose
                             * value val is (messages) */
    int from_vars;          /* PS_CHECK of an equation whose value the last
                             * resort recorded as d's (PS_KNOWN): d is
                             * computed from its variables, never read back
                             * from that value (it would equal itself) */
} PStep;

typedef struct Plan {
    Ctx *c;
    Namer *nm;              /* names as the signature prints them */
    const char *fname;      /* the Axon function's name */
    PtrVec inputs, outputs, temps;  /* PTensor* */
    PtrVec steps;           /* PStep*, in order */
    DimHashMemo *memo;      /* optional: shared with the writer's maps */
    DimMap known;           /* Dim* -> PVal*: expressions whose value is
                             * there at run time (an input axis, a local) */
    int at;                 /* the step being written: what it reads must
                             * have been known before it */
    const char *refused;    /* why the function cannot be exported */
    Loc refused_at;
    PtrVec noted_d, noted_s;   /* variables given a note (plan_clear) */
    int nlocal;
    DimMap known_ix;        /* a variable's Dim -> KnownIx: the expressions
                             * of `known` that may stand in where it occurs
                             * (plan_known.c, index_known), so that each lookup
                             * reads a few, not all */
    struct KnownRef *lead_other;   /* those whose lead term has no variable */
    uint32_t ix_stamp;
    PtrVec splitting;       /* Dim*: being split (plan_known_split) */
    const PtrVec *dyn_known;    /* DVar*: sizes an operation produces that the
                            * code has at hand as dyn[k] (run()'s shapes
                            * after a nonzero: runplan.h) */
} Plan;

#endif
