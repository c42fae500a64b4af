/* unify.c - unification of types, element types and shapes (unify.h), and
 * the diagnostics of a failed one; variables are bound by store.c, sizes
 * equated by dimsolve.c.
 *
 * Type rules (paper figure 3):
 *   tau s = a          =>  a = tau s                      (reorder)
 *   tau1 s1 = tau2 s2  =>  tau1 = tau2, s1 = s2           (split)
 *   a = tau s          =>  FAIL if a occurs in tau s      (occurs check)
 * Shape rules (paper section 5) as applied by u_shape_step:
 *   append unpacking   s @ [.., dn] = s' @ [.., d'm]  =>  dn = d'm, ...
 *                      [d1, ..] @ s = [d'1, ..] @ s'  =>  d1 = d'1, ...
 *   unpacking          [d1..dn] = [d'1..d'm]  =>  di = d'i, FAIL if n != m
 *   empty shapes       [d1..dn] = s1 @ [d'1..d'n] @ s2  =>  s1 = s2 = []
 *   append dimensionality  FAIL if an append needs more axes than it equals
 *   basic              a = s  =>  bind a := s (FAIL if a occurs in s with
 *                      axes around it: no infinite shapes)
 */
#include <string.h>

#include "dim.h"
#include "print.h"
#include "types.h"
#include "unify.h"

/* ---- diagnostics --------------------------------------------------- */

static AX_NORETURN void err_rank(Ctx *c, const Site *site, Shape *e, Shape *a)
{
    Namer nm;
    namer_init(&nm, c, 1);
    Shape *fe = site->exp_shape ? site->exp_shape : e, *fa = site->act_shape ? site->act_shape : a;
    fe = shape_norm(c, fe);
    fa = shape_norm(c, fa);
    int ke, ka;
    int re = shape_rank(fe, &ke), ra = shape_rank(fa, &ka);
    const char *es = pr_shape_str(&nm, fe), *as = pr_shape_str(&nm, fa);
    if (ka)
        diag_error(c->diag, site_loc(site), "%s: shape %s has rank %d, expected %srank %d (%s)", site_what(c, site),
                   as, ra, ke ? "" : "at least ", re, es);
    else if (ke)
        diag_error(c->diag, site_loc(site), "%s: shape %s has at least rank %d, expected rank %d (%s)",
                   site_what(c, site), as, ra, re, es);
    else
        diag_error(c->diag, site_loc(site), "%s: shape %s does not fit %s", site_what(c, site), as, es);
    note_origin(c, es, fe->origin);
    if (fa->origin != fe->origin)
        note_origin(c, as, fa->origin);
    abandon(c);
}

static const char *kind_text(Ctx *c, Type *t)
{
    switch (t->kind) {
    case TY_TENSOR: return "a tensor";
    case TY_TUPLE: return ar_printf(c->arena, "a tuple of %u", t->u.fun.n);
    case TY_FUNC: return ar_printf(c->arena, "a function of %u argument%s", t->u.fun.n, t->u.fun.n == 1 ? "" : "s");
    default: return "a value";
    }
}

static AX_NORETURN void err_types(Ctx *c, const Site *site, Type *e, Type *a)
{
    Namer nm;
    namer_init(&nm, c, 1);
    const char *as = pr_type_str(&nm, a);
    diag_error(c->diag, site_loc(site), "%s: expected %s, found %s", site_what(c, site), kind_text(c, e), as);
    note_origin(c, "the expected type", e->origin);
    if (a->origin != e->origin)
        note_origin(c, as, a->origin);
    abandon(c);
}

/* ---- element types ----------------------------------------------------- */

void u_elem(Ctx *c, Elem *e, Elem *a, const Site *site)
{
    e = elem_find(e);
    a = elem_find(a);
    if (e == a)
        return;
    if (e->prim == EL_VAR || a->prim == EL_VAR) {
        Elem *v = e->prim == EL_VAR ? e : a, *other = v == e ? a : e;
        if (other->prim == EL_VAR) {
            if (other->level > v->level)
                other->level = v->level;
            if (v->cls > other->cls) {
                other->cls = v->cls;
                other->cls_origin = v->cls_origin;
            }
        } else if (!elem_accepts(other->prim, v->cls)) {
            diag_error(c->diag, site_loc(site), "%s: element type %s cannot hold %s", site_what(c, site),
                       elem_name(other->prim),
                       v->cls == ELC_FLOAT ? "a fractional literal" : "a number literal");
            note_origin(c, elem_name(other->prim), other->origin);
            if (v->cls_origin && v->cls_origin->loc.start != site_loc(site).start)
                diag_note(c->diag, v->cls_origin->loc, "the literal is here");
            abandon(c);
        }
        v->link = other;
        v->why = site->why;
        return;
    }
    if (e->prim == a->prim)
        return;
    diag_error(c->diag, site_loc(site), "%s: element type %s does not match %s", site_what(c, site),
               elem_name(a->prim), elem_name(e->prim));
    note_origin(c, elem_name(e->prim), e->origin);
    note_origin(c, elem_name(a->prim), a->origin);
    abandon(c);
}

/* ---- dimensions -------------------------------------------------------- */

void u_dim(Ctx *c, Dim *e, Dim *a, const Site *site)
{
    dim_solve(c, e, a, site, NULL);
}

/* ---- shapes ------------------------------------------------------------ */

static int svar_in_def(Ctx *c, const SVar *holder, const SVar *v)
{
    const Constraint *d = holder->def;
    if (!d || d->done || d->kind != C_BCAST_SHAPE)
        return 0;
    for (int i = 0; i < d->ops.n; i++) {
        Shape *s = shape_norm(c, d->ops.items[i]);
        for (uint32_t k = 0; k < s->n; k++)
            if (s->s[k].var == v)
                return 1;
    }
    return 0;
}

/* x = s where x is a shape variable: bind, or handle x occurring in s
 * (then everything around it must be empty: no infinite shapes). */
static void solve_svar(Ctx *c, SVar *x, Shape *s, const Site *site)
{
    if (s->n == 1 && s->s[0].var) {
        SVar *y = s->s[0].var;
        if (y == x)
            return;
        int first = bind_first(x->id, 0, x->def, svar_in_def(c, x, y), y->id, 0, y->def, svar_in_def(c, y, x));
        if (first)
            bind_svar(c, x, s, site->why);
        else
            bind_svar(c, y, shape_of_var(c, x, s->origin), site->why);
        return;
    }
    int occurs = 0;
    for (uint32_t i = 0; i < s->n; i++)
        if (s->s[i].var == x)
            occurs++;
    if (!occurs) {
        bind_svar(c, x, s, site->why);
        return;
    }
    for (uint32_t i = 0; i < s->n; i++)
        if (s->s[i].dim) {
            Namer nm;
            namer_init(&nm, c, 1);
            diag_error(c->diag, site_loc(site), "%s: infinite shape: %s would have to equal %s",
                       site_what(c, site), pr_shape_str(&nm, shape_of_var(c, x, NULL)), pr_shape_str(&nm, s));
            abandon(c);
        }
    Shape *empty = shape_new(c, 0, s->origin);
    for (uint32_t i = 0; i < s->n; i++)
        if (s->s[i].var != x || occurs > 1)
            if (!s->s[i].var->link)
                bind_svar(c, s->s[i].var, empty, site->why);
}

int u_shape_step(Ctx *c, Shape *E, Shape *A, const Site *site, Shape **re, Shape **ra)
{
    for (;;) {
        E = shape_norm(c, E);
        A = shape_norm(c, A);
        Site s = *site;
        if (!s.exp_shape) {
            s.exp_shape = E;
            s.act_shape = A;
        }
        /* Ranks first (unpacking, append dimensionality): a rank mismatch is
         * reported as such, before any axis is paired up. */
        int kE0, kA0;
        int dE0 = shape_rank(E, &kE0), dA0 = shape_rank(A, &kA0);
        if ((kE0 && kA0 && dE0 != dA0) || (kE0 && dA0 > dE0) || (kA0 && dE0 > dA0))
            err_rank(c, &s, E, A);
        uint32_t ie = 0, ia = 0, je = E->n, ja = A->n;
        while (ie < je && ia < ja) {              /* append unpacking, left */
            Seg *x = &E->s[ie], *y = &A->s[ia];
            if (x->dim && y->dim) {
                s.axis = (int)ia;
                u_dim(c, x->dim, y->dim, &s);
            } else if (!(x->var && x->var == y->var)) {
                break;
            }
            ie++;
            ia++;
        }
        while (je > ie && ja > ia) {              /* append unpacking, right */
            Seg *x = &E->s[je - 1], *y = &A->s[ja - 1];
            if (x->dim && y->dim) {
                s.axis = -(int)(A->n - ja + 1);
                u_dim(c, x->dim, y->dim, &s);
            } else if (!(x->var && x->var == y->var)) {
                break;
            }
            je--;
            ja--;
        }
        s.axis = INT_MIN;
        if (ie == je && ia == ja)
            return 1;
        Shape *Er = shape_slice(c, E, ie, je, E->origin);
        Shape *Ar = shape_slice(c, A, ia, ja, A->origin);
        int kE, kA;
        int dE = shape_rank(Er, &kE), dA = shape_rank(Ar, &kA);
        if (Er->n == 0 && Ar->n == 0)
            return 1;
        if (kE && kA)                             /* unpacking: ranks differ */
            err_rank(c, &s, E, A);
        if (kE || kA) {
            /* One side has known rank n: the other's axes must fit (append
             * dimensionality); a lone variable takes the whole; when the
             * axes exactly fill n, every variable is empty (empty shapes). */
            Shape *K = kE ? Er : Ar, *V = kE ? Ar : Er;
            int nK = kE ? dE : dA, nV = kE ? dA : dE;
            if (nV > nK)
                err_rank(c, &s, E, A);
            if (V->n == 1) {
                solve_svar(c, V->s[0].var, K, &s);
                return 1;
            }
            if (nV == nK) {
                Shape *empty = shape_new(c, 0, K->origin);
                for (uint32_t i = 0; i < V->n; i++)
                    if (V->s[i].var && !V->s[i].var->link)
                        bind_svar(c, V->s[i].var, empty, s.why);
                continue;                         /* unify what is left */
            }
        } else if (Er->n == 1 || Ar->n == 1) {
            Shape *one = Er->n == 1 ? Er : Ar, *other = one == Er ? Ar : Er;
            solve_svar(c, one->s[0].var, other, &s);
            continue;
        }
        *re = Er;
        *ra = Ar;
        return 0;
    }
}

void u_shape(Ctx *c, Shape *e, Shape *a, const Site *site)
{
    Shape *re, *ra;
    if (!u_shape_step(c, e, a, site, &re, &ra)) {
        Constraint *k = cons_new(c, C_EQ_SHAPE, site->why);
        k->sl = re;
        k->sr = ra;
        cons_add(c, k);
    }
}

/* ---- types ------------------------------------------------------------- */

/* Types are DAGs (a pair of a pair shares its parts), so a pair of nodes
 * already unified in this unification is not walked again: each compound
 * node remembers the last node it was unified with (stamp, mark). */
static void u_type_at(Ctx *c, Type *e, Type *a, const Site *site, uint32_t stamp, int depth)
{
    e = type_prune(e);
    a = type_prune(a);
    if (e == a)
        return;
    if (depth > TYPE_MAX_DEPTH)
        type_too_deep(c);
    if (e->kind == TY_VAR) {
        bind_tvar(c, e, a, site);
        return;
    }
    if (a->kind == TY_VAR) {
        bind_tvar(c, a, e, site);
        return;
    }
    if (e->kind != a->kind)
        err_types(c, site, e, a);
    switch (e->kind) {
    case TY_TENSOR: {
        u_elem(c, e->u.ten.elem, a->u.ten.elem, site);
        Site s = *site;
        s.exp_shape = s.act_shape = NULL;
        u_shape(c, e->u.ten.shape, a->u.ten.shape, &s);
        break;
    }
    case TY_TUPLE:
    case TY_FUNC:
        if (e->u.fun.n != a->u.fun.n)
            err_types(c, site, e, a);
        if (e->u.fun.ustamp == stamp && e->u.fun.umark == a)
            return;
        for (uint32_t i = 0; i < e->u.fun.n; i++)
            u_type_at(c, e->u.fun.items[i], a->u.fun.items[i], site, stamp, depth + 1);
        if (e->kind == TY_FUNC)
            u_type_at(c, e->u.fun.ret, a->u.fun.ret, site, stamp, depth + 1);
        e->u.fun.ustamp = stamp;
        e->u.fun.umark = a;
        break;
    case TY_VAR:
        break;
    }
}

void u_type(Ctx *c, Type *e, Type *a, const Site *site)
{
    u_type_at(c, e, a, site, ++c->stamp, 0);
}
