/* cnames.h - the C names of what a header defines, from the user's names
 * (docs/c-api.md, "Names in C").  One scheme, injective by construction:
 * a user name is spelled as written where it is *plain*, and escaped where
 * it is not, so that no two things the header defines get one name, and
 * every name compiles in C and C++ whatever the compiler predefines.
 *
 *   P_NAME_shape, P_NAME_plan, ...    NAME: the function's name, spelled
 *   P_NAME_IN_x, P_NAME_TMP_scores     x: a parameter's or statement's name
 *   P_NAME_IN_x_ELEMENTS, _BYTES, _MAX_ELEMENTS, _MAX_BYTES
 *
 * A name is plain when it is letters and digits in segments joined by
 * single underscores (`d_model`, `W1`, `layer_2`), and in its place cannot
 * be read as the start or the end of a generated word: a function name
 * with a later segment IN, OUT, TMP or NUM (`f_IN` beside `f`'s
 * `P_f_IN_shape`), a tensor name whose last segment is ELEMENTS or BYTES,
 * or whose last two are numbers (an unnamed intermediate's `einsum_12_15`).
 * Any other name (`x_ELEMENTS`, `s'`, `_x`, `a__b`) is escaped: `_`, then
 * each character, `_` as `__` and `'` as `_prime` (`s0'` is `_s0_prime`).
 * A plain name never starts with `_`, an escaped one always does, and
 * escaping is a prefix code (after a `_` comes `_` or `prime`), so
 * different names get different spellings.  What axonc adds to a name
 * (a tuple parameter's items `st__0`, a name bound again `y__2`, a `_`
 * parameter `__3`) has `__` after a letter or a digit, or `__` then a
 * digit, which no spelling has. */
#ifndef AXONC_CNAMES_H
#define AXONC_CNAMES_H

#include "arena.h"
#include "symtab.h"

typedef enum {
    CN_FUNCTION,            /* NAME in P_NAME_... */
    CN_TENSOR               /* x in P_NAME_IN_x, P_NAME_TMP_x */
} CnPlace;

/* name spelled for its place in a C identifier (never at its start). */
const char *cn_spell(Arena *a, const char *name, CnPlace place);

/* Whether name can be a whole identifier of its own in the header (a
 * member of P_NAME_dims, a local): not a keyword of C or C++, not a macro
 * that a compiler predefines or that a header axonc includes defines, not
 * reserved (a leading `_`), not one of the runtime's `axon` names. */
int cn_free_identifier(const char *name);

/* Every name a header defines at file scope, with what defines it.
 * Returns NULL when name is new (it is taken), else the description of
 * what has it already. */
typedef struct CnNames {
    Symtab taken;
} CnNames;

void cn_init(CnNames *n, Arena *a);
const char *cn_claim(CnNames *n, const char *name, const char *what);
/* What has name already, or NULL. */
const char *cn_owner(CnNames *n, const char *name);

#endif
