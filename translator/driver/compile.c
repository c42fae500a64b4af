/* compile.c - the pipeline of one compilation: read the source, parse the
 * embedded prelude and the program, infer, and print signatures. */
#include "compile.h"

#include <errno.h>
#include <string.h>

#include "parse.h"
#include "print.h"

extern const char axon_prelude[];
extern const unsigned long axon_prelude_len;

enum { SIGNATURE_LIMIT = 16 * 1024 * 1024 };

static void compile_init(Compilation *cp, FILE *diag_out, int explain, int warn)
{
    memset(cp, 0, sizeof *cp);
    cp->ctx.explain = explain;
    ar_init(&cp->arena);
    diag_init(&cp->diag, diag_out);
    cp->diag.werror = warn == COMPILE_WERROR;
    cp->diag.nowarn = warn == COMPILE_NOWARN;
    cp->ctx.arena = &cp->arena;
    cp->ctx.diag = &cp->diag;
}

/* Parses the prelude and src, and infers the program. */
static int compile_source(Compilation *cp, Source *src, FILE *diag_out)
{
    cp->src = src;
    Source *pre = src_from_text(&cp->arena, "<prelude>", axon_prelude, axon_prelude_len, 1);
    cp->prelude = parse_source(&cp->arena, &cp->diag, pre, 1);
    if (cp->diag.errors) {
        fprintf(diag_out, "axonc: internal error: the prelude does not parse\n");
        return 1;
    }
    cp->prog = parse_source(&cp->arena, &cp->diag, src, 0);
    if (cp->diag.errors)
        return 1;
    if (cp->prog->imports.n) {
        /* the imported files' items first, each file once, then the file's
         * own (spec section 2: as if defined before them) */
        PtrVec programs = { 0 };
        imports_resolve(&cp->arena, &cp->diag, cp->prog, &cp->imports, &programs, &cp->imported);
        if (cp->diag.errors)
            return 1;
        Program *all = ar_alloc(&cp->arena, sizeof *all);
        all->src = src;
        pv_push(&cp->arena, &programs, cp->prog);
        for (int i = 0; i < programs.n; i++) {
            Program *p = programs.items[i];
            for (int j = 0; j < p->items.n; j++)
                pv_push(&cp->arena, &all->items, p->items.items[j]);
            all->nbinders += p->nbinders;
        }
        cp->prog = all;
    }
    infer_program(&cp->ctx, cp->prelude, cp->prog, &cp->checked);
    return cp->diag.errors ? 1 : 0;
}

static int compile(Compilation *cp, const char *path, FILE *diag_out, int explain, int warn, const PtrVec *include)
{
    compile_init(cp, diag_out, explain, warn);
    cp->imports.from_disk = 1;
    if (include)
        cp->imports.include = *include;
    Source *src = src_load(&cp->arena, path);
    if (!src) {
        int e = errno;
        if (e == EFBIG) {
            diag_put_name(diag_out, path);
            fprintf(diag_out, ": error: the input is larger than %d MiB\n", SRC_MAX_MIB);
        } else {
            fputs("axonc: error: cannot read '", diag_out);
            diag_put_name(diag_out, path);
            fprintf(diag_out, "': %s\n", strerror(e));
        }
        return 1;
    }
    return compile_source(cp, src, diag_out);
}

int compile_file(Compilation *cp, const char *path, FILE *diag_out, int warn, const PtrVec *include)
{
    return compile(cp, path, diag_out, 0, warn, include);
}

int compile_file_for_emit(Compilation *cp, const char *path, FILE *diag_out, int warn, const PtrVec *include)
{
    return compile(cp, path, diag_out, 1, warn, include);
}

int compile_text(Compilation *cp, const char *name, const char *text, size_t len, FILE *diag_out,
                 int explain)
{
    return compile_texts(cp, name, text, len, 0, NULL, NULL, NULL, diag_out, explain);
}

int compile_texts(Compilation *cp, const char *name, const char *text, size_t len, int nfiles,
                  const char *const *names, const char *const *texts, const size_t *lens, FILE *diag_out,
                  int explain)
{
    compile_init(cp, diag_out, explain, COMPILE_WARN);
    cp->imports.nmem = nfiles;
    cp->imports.mem_names = names;
    cp->imports.mem_texts = texts;
    cp->imports.mem_lens = lens;
    if (len > SRC_MAX_BYTES) {          /* the bound src_load puts on a file */
        fprintf(diag_out, "%s: error: the input is larger than %d MiB\n", name, SRC_MAX_MIB);
        return 1;
    }
    return compile_source(cp, src_from_text(&cp->arena, name, text, len, 0), diag_out);
}

void compile_free(Compilation *cp)
{
    ar_free(&cp->arena);
}

const char *compile_signatures(Compilation *cp)
{
    Buf out;
    buf_init(&out, &cp->arena);
    out.limit = SIGNATURE_LIMIT;
    for (int i = 0; i < cp->checked.bindings.n; i++) {
        Binding *b = cp->checked.bindings.items[i];
        if (!compile_own_item(cp, b->item))
            continue;               /* (an imported file's: its own check prints it) */
        Namer nm;
        namer_init(&nm, &cp->ctx, 0);
        buf_printf(&out, "%s : ", b->item->name);
        pr_scheme(&nm, &out, b->scheme);     /* (it stops at out's limit) */
        buf_putc(&out, '\n');
        if (out.full) {
            diag_error(&cp->diag, b->item->name_loc,
                       "the signature of '%s' is too large to print (over %d bytes)", b->item->name,
                       SIGNATURE_LIMIT);
            return NULL;
        }
    }
    return buf_str(&out);
}
