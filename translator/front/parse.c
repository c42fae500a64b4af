/* parse.c - runs the reentrant scanner and the pure parser over one source. */
#include "parse.h"

#include <string.h>

#include "axon.tab.h"
#include "axon.lex.h"

void parse_check_depth(Parser *P, int depth, Loc loc)
{
    if (depth > AST_MAX_DEPTH && !P->too_deep) {
        P->too_deep = 1;
        diag_error(P->diag, loc, "this is nested too deeply (more than %d levels of brackets, calls or operators; a chain a + b + c has one level per operator)", AST_MAX_DEPTH);
    }
}

Program *parse_source(Arena *a, Diag *diag, const Source *src, int prelude)
{
    Parser P = {0};
    P.arena = a;
    P.diag = diag;
    P.src = src;
    P.prelude = prelude;
    P.prog = ar_alloc(a, sizeof *P.prog);
    P.prog->src = src;

    yyscan_t scanner;
    if (yylex_init_extra(&P, &scanner)) {
        diag_error(diag, (Loc){src, 0, 0}, "cannot start the scanner");
        return P.prog;
    }
    /* The scanner works in a copy of its own (it writes into its buffer;
     * diagnostics read src->text), made in the arena, whose memory is
     * already mapped (yy_scan_bytes would copy into fresh malloc'd pages),
     * and ending in the two NULs flex needs. */
    char *copy = ar_alloc(a, src->len + 2);
    memcpy(copy, src->text, src->len);
    copy[src->len] = copy[src->len + 1] = 0;
    YY_BUFFER_STATE buf = yy_scan_buffer(copy, src->len + 2, scanner);
    int rc = yyparse(scanner, &P);
    yy_delete_buffer(buf, scanner);
    yylex_destroy(scanner);
    if (rc != 0 && diag->errors == 0)
        diag_error(diag, (Loc){src, 0, 0}, "syntax error");
    return P.prog;
}
