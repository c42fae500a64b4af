/* spec.c - the signature a spec string spells (spec.h). */
#include "spec.h"

#include <string.h>

#include "arena.h"
#include "source.h"

static const char *const ops[] = { "einsum", "sum", "mean", "amax", "amin", "argmax" };

int spec_is_op(const char *name)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(name, ops[i]) == 0)
            return 1;
    return 0;
}

enum { SPEC_MAX = 1024 };

typedef struct Operand {
    const char *labels;      /* letters (and 1s in a reduction's output) */
    int n;
    int ellipsis;            /* position of "..." among the labels, or -1 */
} Operand;

typedef struct SpecParse {
    Ctx *c;
    Loc loc;                 /* the literal, quotes included */
    const char *spec;
    const char *op;
} SpecParse;

/* An error at spec[i] (a character of the string, inside the quotes). */
static const char *fail_at(SpecParse *sp, size_t i, const char *fmt, const char *arg)
{
    Loc l = sp->loc;
    if (l.end > l.start + 1) {
        l.start = l.start + 1 + (uint32_t)i;
        l.end = l.start + 1;
    }
    char msg[256];
    snprintf(msg, sizeof msg, fmt, arg);
    diag_error(sp->c->diag, l, "the spec of '%s': %s", sp->op, msg);
    return NULL;
}

/* One operand from spec[*i] to a ',' or '-' or the end. */
static int operand(SpecParse *sp, size_t *i, int output, Operand *o)
{
    const char *s = sp->spec;
    char *labels = ar_alloc(sp->c->arena, strlen(s) + 1);
    o->labels = labels;
    o->n = 0;
    o->ellipsis = -1;
    int reduction = strcmp(sp->op, "einsum") != 0;
    for (;;) {
        char ch = s[*i];
        if (ch == ' ') {
            (*i)++;
        } else if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (output && reduction && ch == '1')) {
            labels[o->n++] = ch;
            (*i)++;
        } else if (ch == '.') {
            if (strncmp(s + *i, "...", 3) != 0) {
                fail_at(sp, *i, "%s", "a '.' that is not part of '...'");
                return 1;
            }
            if (o->ellipsis >= 0) {
                fail_at(sp, *i, "%s", "a second '...' in one operand");
                return 1;
            }
            o->ellipsis = o->n;
            *i += 3;
        } else if (ch == ',' || ch == '-' || ch == 0) {
            return 0;
        } else {
            char c1[2] = { ch, 0 };
            fail_at(sp, *i, ch == '1' ? "unexpected '%s' (a 1 keeps an axis only in a reduction's output)"
                                      : "unexpected '%s' (labels are letters, '...' any axes)", c1);
            return 1;
        }
    }
}

/* labels[from, to) as one atom [L_a, L_b, 1], after " @ " unless first. */
static void labels_text(Buf *b, const char *labels, int from, int to, int *atoms)
{
    if (from == to)
        return;
    buf_printf(b, "%s[", (*atoms)++ ? " @ " : "");
    for (int k = from; k < to; k++) {
        if (labels[k] == '1')
            buf_printf(b, "%s1", k > from ? ", " : "");
        else
            buf_printf(b, "%sL_%c", k > from ? ", " : "", labels[k]);
    }
    buf_putc(b, ']');
}

/* The shape of an operand as type text: [L_a, L_b] @ e1 @ [L_c]. */
static void shape_text(Buf *b, const Operand *o, const char *ell)
{
    int atoms = 0;
    int cut = o->ellipsis >= 0 ? o->ellipsis : o->n;
    labels_text(b, o->labels, 0, cut, &atoms);
    if (o->ellipsis >= 0) {
        buf_printf(b, "%s%s", atoms++ ? " @ " : "", ell);
        labels_text(b, o->labels, cut, o->n, &atoms);
    }
    if (!atoms)
        buf_puts(b, "[]");
}

const char *spec_signature(Ctx *c, const char *op, const char *spec, Loc loc)
{
    SpecParse sp = { c, loc, spec, op };
    if (strlen(spec) > SPEC_MAX)
        return fail_at(&sp, 0, "%s", "longer than 1024 characters");
    const char *arrow = strstr(spec, "->");
    if (!arrow)
        return fail_at(&sp, strlen(spec), "%s", "no '->' (write the output's labels after it)");
    PtrVec ins = { 0 };
    size_t i = 0;
    for (;;) {
        Operand *o = ar_alloc(c->arena, sizeof *o);
        if (operand(&sp, &i, 0, o))        /* (an empty one is a scalar) */
            return NULL;
        if (spec[i] == '-' && spec[i + 1] != '>')
            return fail_at(&sp, i, "%s", "a '-' that is not part of '->'");
        pv_push(c->arena, &ins, o);
        if (spec[i] == ',') {
            i++;
            continue;
        }
        break;                              /* at the "->" */
    }
    size_t out_at = i + 2;
    i = out_at;
    Operand out;
    if (operand(&sp, &i, 1, &out))
        return NULL;
    if (spec[i] != 0)
        return fail_at(&sp, i, "%s", spec[i] == ',' ? "more than one output" : "a second '->'");
    int einsum = strcmp(op, "einsum") == 0;
    if (!einsum && ins.n != 1)
        return fail_at(&sp, 0, "%s", "a reduction has one operand");
    /* Every output label is an input's, once. */
    int any_ellipsis = 0;
    for (int k = 0; k < ins.n; k++)
        any_ellipsis |= ((Operand *)ins.items[k])->ellipsis >= 0;
    for (int k = 0; k < out.n; k++) {
        char ch = out.labels[k];
        if (ch == '1')
            continue;
        char l[2] = { ch, 0 };
        for (int j = 0; j < k; j++)
            if (out.labels[j] == ch)
                return fail_at(&sp, out_at, "label '%s' appears twice in the output", l);
        int found = 0;
        for (int m = 0; m < ins.n && !found; m++) {
            const Operand *o = ins.items[m];
            found = memchr(o->labels, ch, (size_t)o->n) != NULL;
        }
        if (!found)
            return fail_at(&sp, out_at, "label '%s' of the output is in no operand", l);
    }
    if (out.ellipsis >= 0 && !any_ellipsis)
        return fail_at(&sp, out_at, "%s", "'...' in the output but in no operand");
    if (out.ellipsis < 0 && any_ellipsis)
        return fail_at(&sp, out_at, "%s", "the operands have '...', so the output needs it too");
    /* The signature. */
    Buf b;
    buf_init(&b, c->arena);
    buf_puts(&b, "(h");
    for (int k = 0; k < ins.n; k++) {
        buf_puts(&b, ", t ");
        shape_text(&b, ins.items[k], ar_printf(c->arena, "e%d", k + 1));
    }
    buf_printf(&b, ") -> %s ", strcmp(op, "argmax") == 0 ? "i32" : "t");
    Buf ell;
    buf_init(&ell, c->arena);
    int nell = 0;
    for (int k = 0; k < ins.n; k++)
        if (((Operand *)ins.items[k])->ellipsis >= 0)
            buf_printf(&ell, "%se%d", nell++ ? ", " : "", k + 1);
    shape_text(&b, &out, nell > 1 ? ar_printf(c->arena, "broadcast(%s)", buf_str(&ell)) : buf_str(&ell));
    return buf_str(&b);
}
