/* print.h - printing types, shapes and dimensions (axon-spec.md section 7).
 *
 * A Namer renames variables in order of first appearance: element variables
 * t, t1, t2, ...; type, shape and dimension variables a, b, ..., z (skipping
 * t), then a1, b1, ...  A scheme prints its sizes and shapes in the names
 * of its item's annotations where each is one name's alone (spec section
 * 7): its letters skip every name of the item.  In diagnostics (hints = 1)
 * a variable that came from an annotation keeps the name the user wrote.
 */
#ifndef AXONC_PRINT_H
#define AXONC_PRINT_H

#include "terms.h"

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

void pr_type(Namer *nm, Buf *b, Type *t);
void pr_shape(Namer *nm, Buf *b, Shape *s);
void pr_dim(Namer *nm, Buf *b, Dim *d);
void pr_elem(Namer *nm, Buf *b, Elem *e);
/* The residual constraints of a scheme that print after its type:
 * writes " where C1, C2" (nothing when there are none). */
void pr_where(Namer *nm, Buf *b, const PtrVec *cons);
void pr_constraint(Namer *nm, Buf *b, Constraint *c);
/* The name a variable was given (NULL if it has none yet). */
const char *namer_name_of(Namer *nm, uint32_t *stamp, void **mark);

/* Terms as text for messages: cut short (" ...") past PR_TEXT_LIMIT bytes.
 * Use one Namer for all the terms of one message. */
enum { PR_TEXT_LIMIT = 2048 };
const char *pr_type_str(Namer *nm, Type *t);
const char *pr_shape_str(Namer *nm, Shape *s);
const char *pr_dim_str(Namer *nm, Dim *d);
/* A scheme as text, cut short (" ...") past limit bytes. */
const char *pr_scheme_str(Ctx *c, const Scheme *s, size_t limit);
/* Prints a scheme with a namer the caller keeps (to ask names afterwards). */
void pr_scheme(Namer *nm, Buf *b, const Scheme *s);

#endif
