/* print_terms.h - terms as text (print_terms.c; axon-spec.md section 7):
 * the Namer and its names, types, shapes, dimensions, broadcasts; what
 * print_where.c and print.c print with them.  The rest of the translator
 * includes print.h.
 *
 * A Namer renames variables in order of first appearance: element variables
 * t, t1, t2, ...; type, shape and dimension variables a, b, ..., z (skipping
 * t), then a1, b1, ...  A scheme prints its sizes and shapes in the names
 * of its item's annotations where each is one name's alone (spec section
 * 7): its letters skip every name of the item.  In diagnostics (hints = 1)
 * a variable that came from an annotation keeps the name the user wrote.
 */
#ifndef AXONC_PRINT_TERMS_H
#define AXONC_PRINT_TERMS_H

#include "terms.h"

enum { PR_MAX_DEPTH = 200 };      /* nesting printed before " ..." */

typedef struct Namer {
    Ctx *ctx;
    uint32_t stamp;
    int hints;
    int next_var, next_elem;
    PtrVec used;          /* names handed out, when hints are used */
    struct Symtab *reserved;  /* names no letter takes: those of the item
                           * whose scheme is printed (pr_scheme) */
    void *equal_to;       /* a DimMap: a size a clause equates to a lone
                           * variable -> that variable, printed in its place
                           * outside the clauses (`2 * (h / 2)` is h where
                           * `h % 2 = 0`) */
    int in_where;         /* printing the clauses */
    PtrVec mods;          /* SimpMod*: the remainders the scheme's
                           * clauses say are 0 (simplify.h), used to print
                           * every size (`2 * (h / 2)` is h) */
    int depth;            /* nesting of dimensions and broadcasts printed */
    int tdepth;           /* nesting of types printed (TYPE_MAX_DEPTH) */
    int raw;              /* print without rewrite rules (their own equation) */
    int ndyn;             /* distinct `?`s counted in the type being printed */
    PtrVec named_dyn;     /* DVar*: sizes an operation produces (a `?` of its
                           * signature) printed by a name: pr_where says
                           * `b = ?` of each */
} Namer;

void namer_init(Namer *nm, Ctx *c, int hints);
const char *namer_letter(int index);         /* a, b, ..., z (no t), a1, ... */
/* The name a variable was given (NULL if it has none yet). */
const char *namer_name_of(Namer *nm, uint32_t *stamp, void **mark);

void pr_type(Namer *nm, Buf *b, Type *t);
void pr_shape(Namer *nm, Buf *b, Shape *s);
void pr_dim(Namer *nm, Buf *b, Dim *d);
void pr_elem(Namer *nm, Buf *b, Elem *e);

/* Terms as text for messages: cut short (" ...") past PR_TEXT_LIMIT bytes.
 * Use one Namer for all the terms of one message. */
enum { PR_TEXT_LIMIT = 2048 };
const char *pr_type_str(Namer *nm, Type *t);
const char *pr_shape_str(Namer *nm, Shape *s);
const char *pr_dim_str(Namer *nm, Dim *d);

/* ---- for print_where.c and print.c ---- */

/* A variable's name: given at its first appearance (hint: its
 * annotation's name, where hints are used; elem: an element variable). */
const char *pr_name_var(Namer *nm, uint32_t *stamp, void **mark, const char *hint, int elem);
/* Whether a variable's defining constraint (a broadcast, a count) is still
 * open, so that it prints in the variable's place. */
int pr_def_live(const Constraint *c);
/* Whether constraint c was printed in place already (a broadcast). */
int pr_was_shown(Namer *nm, Constraint *c);
/* The broadcast that operand op of c stands for, if it is printed inside c. */
Constraint *pr_nested_def(Namer *nm, Constraint *c, void *op);
/* The operands of a broadcast, flattened, as texts (at most max). */
void pr_bcast_leaves(Namer *nm, Constraint *c, PtrVec *texts, int max);
void pr_bcast_ops(Namer *nm, Buf *b, Constraint *c);
/* elements(s) or rank(s) of a count constraint. */
void pr_count(Namer *nm, Buf *b, Constraint *c);
/* A dimension as an operand (parenthesised where it is a sum). */
void pr_operand(Namer *nm, Buf *b, Dim *d);
/* qsort's order of strings (const char *). */
int pr_str_cmp(const void *x, const void *y);
/* b cut short past limit bytes; then its text with " ..." where it was. */
void pr_limit_text(Buf *b, size_t limit);
const char *pr_cut(Buf *b);

#endif
