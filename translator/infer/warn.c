/* warn.c - the warnings of axon-spec.md section 6b: what type-checks but is
 * probably not meant.  Each says what, where each fact was written, and
 * what would fix it.  docs/language.md, "Warnings", gives the rules:
 *
 *  - two different annotation names of one item that inference forces to
 *    be one size (`W1 : f32 [h, i]` where the program needs h = i), unless
 *    a `where n = m` clause of the item says so;
 *  - a broadcast made by an operator of the item itself between sizes that
 *    its annotations name differently, which survives into the item's
 *    signature: `broadcast(n, g)`, or `g in {1, 3}` (a bias of the wrong
 *    layout).  Writing `broadcast(...)` in an annotation of the item says
 *    that a broadcast is meant, and silences it.
 *
 * Names and operators of other items (a function called here, the
 * prelude) are theirs: only this item's own annotations and operators
 * count, so a correct network gets no warning.
 */
#include "warn.h"


#include "dim.h"
#include "print.h"
#include "solve.h"
#include "source.h"
#include "types.h"

/* Whether origin o is a place inside item it (an operator it applies). */
static int in_item(const Origin *o, const Item *it)
{
    return o && o->loc.src == it->loc.src && o->loc.src && !o->loc.src->builtin && o->loc.start >= it->loc.start &&
           o->loc.end <= it->loc.end;
}

/* The annotation name of this item that a dimension variable is, if any:
 * the variables are marked (stamp, mark) by mark_names, in linear time. */
static void mark_names(Ctx *c, Scope *sc, uint32_t *stamp)
{
    *stamp = ++c->stamp;
    for (int i = 0; i < sc->names.n; i++) {
        ScopeName *n = sc->names.items[i];
        if (n->kind == NK_DIM) {
            DVar *v = n->var;
            v->stamp = *stamp;
            v->mark = n;
        }
    }
}

static const ScopeName *dim_name(uint32_t stamp, const DVar *v)
{
    return v->stamp == stamp ? v->mark : NULL;
}

/* The variable a name's size is now, and the binding that made it so. */
static DVar *rep_var(Ctx *c, DVar *v, const Origin **why)
{
    *why = v->link ? v->why : NULL;
    return dim_is_var(dim_norm(c, dim_of_var(c, v, NULL)));
}

static void names_forced_equal(Ctx *c, const Item *it, Scope *sc)
{
    /* each size (the variable a name is now) marked with its first name,
     * so that the names are compared in linear time */
    uint32_t stamp = ++c->stamp;
    for (int i = 0; i < sc->names.n; i++) {
        const ScopeName *n = sc->names.items[i];
        if (n->kind != NK_DIM)
            continue;
        const Origin *why;
        DVar *r = rep_var(c, n->var, &why);
        if (!r)
            continue;
        if (r->stamp != stamp) {
            r->stamp = stamp;
            r->mark = (void *)n;
            continue;
        }
        const ScopeName *first = r->mark;
        const Origin *why_first;
        rep_var(c, first->var, &why_first);
        /* the binding of whichever of the two was bound says who joined them */
        const Origin *join = why ? why : why_first;
        if (origin_clause(join))
            continue;                       /* `where n = m`: said on purpose */
        Loc at = join && in_item(join, it) ? join->loc : n->loc;
        diag_warning(c->diag, at, "'%s' and '%s' are two names for one size: %s makes them equal", first->name,
                     n->name, join ? origin_text(c, join) : "inference");
        diag_note(c->diag, first->loc, "'%s' is written here", first->name);
        diag_note(c->diag, n->loc, "'%s' is written here", n->name);
        diag_note_plain(c->diag, "if they are one size, write '%s' for both; if not, an annotation (a weight's "
                                 "layout, a transpose) is wrong", first->name);
    }
}

static void surviving_broadcasts(Ctx *c, const Item *it, Scope *sc, const Scheme *s)
{
    if (sc->wrote_bcast)        /* broadcast(...) in an annotation: one is meant */
        return;
    uint32_t stamp;
    mark_names(c, sc, &stamp);
    for (int i = 0; i < s->cons.n; i++) {
        Constraint *k = s->cons.items[i];
        if (k->done || k->kind != C_BCAST_DIM || !in_item(k->why, it))
            continue;
        const ScopeName *named[2] = { NULL, NULL };
        int nnamed = 0;
        for (int j = 0; j < k->ops.n && nnamed < 2; j++) {
            DVar *v = dim_is_var(dim_norm(c, k->ops.items[j]));
            const ScopeName *n = v ? dim_name(stamp, v) : NULL;
            if (n && (nnamed == 0 || n->var != named[0]->var))
                named[nnamed++] = n;
        }
        int64_t r;
        Dim *res = k->dres->link ? dim_norm(c, dim_of_var(c, k->dres, NULL)) : NULL;
        const char *fix = "if they are one size, write one name for both; if the broadcast is meant, say so "
                          "in the result's annotation with broadcast(...)";
        if (nnamed == 2 && !res) {
            diag_warning(c->diag, k->why->loc,
                         "%s broadcasts '%s' with '%s', two sizes that stay different: the signature says "
                         "broadcast(%s, %s)", origin_text(c, k->why), named[0]->name, named[1]->name,
                         named[0]->name, named[1]->name);
        } else if (nnamed >= 1 && res && dim_is_const(res, &r) && r != 1) {
            diag_warning(c->diag, k->why->loc,
                         "%s broadcasts '%s' with size %lld: '%s' must be 1 or %lld", origin_text(c, k->why),
                         named[0]->name, (long long)r, named[0]->name, (long long)r);
            fix = ar_printf(c->arena, "if the axis has size %lld, write %lld for '%s'; if it is 1 or %lld on "
                            "purpose, say so in the result's annotation with broadcast(...)", (long long)r,
                            (long long)r, named[0]->name, (long long)r);
        } else {
            continue;
        }
        for (int j = 0; j < nnamed; j++)
            diag_note(c->diag, named[j]->loc, "'%s' is written here", named[j]->name);
        diag_note_plain(c->diag, "%s", fix);
    }
}

void warn_item(Ctx *c, const Item *it, Scope *sc, const Scheme *s)
{
    if (!it->loc.src || it->loc.src->builtin)
        return;
    names_forced_equal(c, it, sc);
    if (s && type_prune(s->type)->kind == TY_FUNC)
        surviving_broadcasts(c, it, sc, s);
}
