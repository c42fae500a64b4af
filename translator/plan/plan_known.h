/* plan_known.h - what the run-time plan knows (plan_known.c): the queries
 * the printers of a plan ask (plan_var, plan_known, ...), and the solver's
 * state with the internals that plan_steps.c and plan.c share.  The rest
 * of the translator includes plan.h. */
#ifndef AXONC_PLAN_KNOWN_H
#define AXONC_PLAN_KNOWN_H

#include "plan_types.h"
#include "symtab.h"

/* The notes on variables belong to one function: removes them. */
void plan_clear(Plan *p);

/* What the plan knows (valid until plan_clear). */
/* v's value from the step that binds it on (Plan.at), or NULL. */
PVar *plan_var(const Plan *p, const DVar *v);
PRun *plan_run(const SVar *v);
/* The run of v when it is placed in a shape (not only its length). */
PRun *plan_run_placed(const SVar *v);
/* Whether d's value is known at the end of the plan (its variables, or d
 * itself as a known expression). */
int plan_dim_known(Plan *p, Dim *d);
const PVal *plan_known(Plan *p, Dim *d);    /* NULL if d is not one */
/* d's own known value out of sight (a check of the equation that gave it
 * computes d another way): returns what plan_unhide_known takes back (-1:
 * d is not a known expression). */
int plan_hide_known(Plan *p, Dim *d);
void plan_unhide_known(Plan *p, Dim *d, int since);
/* d as c * K + rest, where K's value is known (an input axis, a local) and
 * rest's variables are known (sure: and none of them may be
 * AXON_DIM_UNKNOWN): K's value, or NULL when there is none. */
const PVal *plan_known_split(Plan *p, Dim *d, int64_t *c, Dim **rest, int sure);
/* d with a known product of sizes (an input axis `k * m`) replaced by a
 * variable standing for its value (PVar.val), as often as it divides each
 * term (`k^2 * m^2` is its square), or a known sum standing in for one of
 * its variables (`(m + n)^2` with `m + n` an input axis), where that leaves
 * only known variables (sure: none that may be AXON_DIM_UNKNOWN); NULL
 * where none does. */
Dim *plan_known_subst(Plan *p, Dim *d, int sure);
/* Whether a variable of d may be AXON_DIM_UNKNOWN (d not a known
 * expression itself). */
int plan_unknown_vars(Plan *p, Dim *d);
/* Whether d's value may be AXON_DIM_UNKNOWN: a variable of it may be, and
 * no sure split (above) gives it.  `m * n + n` with m unknown when n is 0
 * is the input axis that is `m * n`, plus n. */
int plan_maybe_unknown(Plan *p, Dim *d);
/* A fresh local name: stem followed by a number. */
const char *plan_local(Plan *p, const char *stem);

/* ---- the solver's state, for plan_steps.c and plan.c ---- */

typedef struct PEq {        /* a waiting equation d = val */
    Dim *d;                 /* as first made */
    int raw;                /* from a residual with a rewrite rule */
    PVal val;
    const Origin *why;
    const char *text;       /* the residual it comes from, or NULL */
    Constraint *bcast;      /* the broadcast whose computed result it is */
    const char *recorded;   /* last resort: the local that holds its value */
    Dim *other;             /* a residual l = r: the known side, val's */
    int done;
} PEq;

typedef struct PMatch {     /* a waiting match of a pattern against src */
    PSrc *src;
    Shape *pattern;         /* normalised, for messages */
    PtrVec segs;            /* Seg*, as first made */
    const Origin *why;
    int input;              /* >= 0: the match of an input */
    int done;
} PMatch;

typedef struct Pl {
    Plan *p;
    Ctx *c;
    PtrVec matches, eqs, cons;
    Symtab emitted;         /* texts of the residuals planned (duplicates) */
    PtrVec nonneg;          /* Dim*: expressions equal to a size >= 0 */
    int hard;               /* solve with a factor known only at run time
                             * (whose 0 leaves the unknown undetermined):
                             * only once nothing simpler is left */
    int last_resort;
} Pl;

/* v is known from the step being made on (PVar.since). */
void pl_set_var(Pl *pl, DVar *v, PVar *k);
/* v's run is known. */
void pl_set_run(Pl *pl, SVar *v, PRun *r);
/* d's value is there at run time as val (an input axis, a local). */
void pl_put_known(Plan *p, Dim *d, PVal *val);
/* The same where d is worth it (not a constant, not a lone variable). */
void pl_note_known(Plan *p, Dim *d, const PVal *val);
/* Whether d is known (raw: without rewrite rules). */
int pl_known_raw(Plan *p, Dim *d, int raw);
/* Every shape variable of s placed, and every size known. */
int pl_shape_known(Plan *p, Shape *s);

#endif
