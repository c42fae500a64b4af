/* plan_print.c - a function's run-time plan as text, one step per line
 * (`axonc emit --format=plan`): what its shape function checks, binds and
 * solves, in order, for reading and for the tests of plan.c. */
#include <string.h>

#include "dim.h"
#include "plan_print.h"
#include "types.h"

static const char *pos_text(Plan *p, const PPos *pos)
{
    Buf b;
    buf_init(&b, p->c->arena);
    for (int i = 0; i < pos->runs.n; i++)
        buf_printf(&b, "%s|%s|", i ? " + " : "", plan_run(pos->runs.items[i])->name);
    if (pos->k || !pos->runs.n)
        buf_printf(&b, "%s%d", pos->runs.n ? " + " : "", pos->k);
    return buf_str(&b);
}

static const char *src_text(const PSrc *s)
{
    return s->input >= 0 ? s->desc : s->local;
}

static const char *val_text(Plan *p, const PVal *v)
{
    if (!v->src)
        return v->local;
    return ar_printf(p->c->arena, "%s[%s]", src_text(v->src), pos_text(p, &v->pos));
}

static const char *dim_s(Plan *p, Dim *d, int raw)
{
    int saved = p->nm->raw;
    p->nm->raw = raw;
    const char *s = pr_dim_str(p->nm, d);
    p->nm->raw = saved;
    return s;
}

static const char *runs_text(Plan *p, int fixed, const PtrVec *runs)
{
    Buf b;
    buf_init(&b, p->c->arena);
    buf_printf(&b, "%d", fixed);
    for (int i = 0; i < runs->n; i++)
        buf_printf(&b, " + |%s|", plan_run(runs->items[i])->name);
    return buf_str(&b);
}

static void print_step(Plan *p, Buf *b, PStep *st)
{
    Arena *a = p->c->arena;
    switch (st->kind) {
    case PS_RANK: {
        PTensor *t = p->inputs.items[st->input];
        int known;
        shape_rank(st->pattern, &known);
        buf_printf(b, "rank %s %s %d (%s); every size >= 0%s", t->desc, known ? "==" : ">=", st->fixed,
                   pr_shape_str(p->nm, st->pattern), st->ragged ? " or ragged" : "");
        break;
    }
    case PS_MATCH:
        buf_printf(b, "match %s against %s: rank %s %s", pr_shape_str(p->nm, st->pattern), src_text(st->src),
                   st->unknown ? ">=" : "==", runs_text(p, st->fixed, &st->runs));
        if (st->unknown) {
            PRun *r = plan_run(st->unknown);
            buf_printf(b, "; %s := %s[%s ..], rank - (%s) sizes", r->name, src_text(st->src), pos_text(p, &r->off),
                       pos_text(p, &r->rest));
        }
        for (int i = 0; i < st->placed.n; i++) {
            PRun *r = plan_run(st->placed.items[i]);
            buf_printf(b, "; %s := %s[%s ..]", r->name, src_text(st->src), pos_text(p, &r->off));
        }
        break;
    case PS_SAME_RUN:
        buf_printf(b, "compare %s[%s ..] with %s", src_text(st->src), pos_text(p, &st->pos), plan_run(st->run)->name);
        break;
    case PS_RAGGED:
        buf_printf(b, "check %s is ragged", val_text(p, &st->val));
        break;
    case PS_CHECK:
        buf_printf(b, "check %s == %s%s%s", val_text(p, &st->val), dim_s(p, st->d, st->raw), st->text ? "  from " : "",
                   st->text ? st->text : "");
        break;
    case PS_BIND:
        buf_printf(b, "bind %s := %s", dim_s(p, dim_of_var(p->c, st->var, NULL), 0), val_text(p, &st->val));
        break;
    case PS_SOLVE:
        buf_printf(b, "solve %s = %s for %s", dim_s(p, st->d, st->raw), val_text(p, &st->val),
                   dim_s(p, dim_of_var(p->c, st->var, NULL), 0));
        break;
    case PS_EXISTS:
        buf_printf(b, "exists %s = %s in %s: %s %s %s", dim_s(p, st->d, st->raw), val_text(p, &st->val), st->text,
                   val_text(p, &st->val), st->sign > 0 ? ">=" : "<=", dim_s(p, st->rest, 0));
        break;
    case PS_KNOWN:
        buf_printf(b, "known %s := %s (the value of %s)", st->local, val_text(p, &st->val), dim_s(p, st->d, 0));
        break;
    case PS_EVAL:
        buf_printf(b, "eval %s := %s", st->local, dim_s(p, st->d, st->raw));
        break;
    case PS_RUN_LEN:
        buf_printf(b, "length |%s| := %s (0 .. AXON_MAX_RANK)", plan_run(st->run)->name, dim_s(p, st->d, 0));
        break;
    case PS_COUNT:
        buf_printf(b, "count %s := %s(%s)", st->local, st->k->kind == C_ELEMS ? "elements" : "rank",
                   pr_shape_str(p->nm, st->pattern));
        break;
    case PS_BCAST_DIM:
    case PS_BCAST_SHAPE: {
        Buf k;
        buf_init(&k, a);
        k.limit = PR_TEXT_LIMIT;
        pr_constraint(p->nm, &k, st->k);
        buf_printf(b, "broadcast %s := %s%s", st->local, buf_str(&k), k.full ? " ..." : "");
        if (st->run)
            buf_printf(b, "; %s := %s", plan_run(st->run)->name, st->local);
        break;
    }
    case PS_SHAPE:
        buf_printf(b, "shape %s := %s", st->local, pr_shape_str(p->nm, st->pattern));
        break;
    case PS_EQ_DIM:
        buf_printf(b, "check %s", st->text);
        break;
    case PS_NONNEG:
        buf_printf(b, "check %s >= 0", dim_s(p, st->d, 0));
        break;
    case PS_FITS:
        buf_printf(b, "check %s fits int64", dim_s(p, st->d, 0));
        break;
    }
    (void)a;
}

void plan_print(Plan *p, Buf *out)
{
    for (int i = 0; i < p->steps.n; i++) {
        buf_puts(out, "  ");
        print_step(p, out, p->steps.items[i]);
        buf_putc(out, '\n');
    }
}
