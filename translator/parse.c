/* parse.c - runs the reentrant scanner and the pure parser over one source. */
#include "parse.h"

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
    YY_BUFFER_STATE buf = yy_scan_bytes(src->text, (int)src->len, scanner);
    int rc = yyparse(scanner, &P);
    yy_delete_buffer(buf, scanner);
    yylex_destroy(scanner);
    if (rc != 0 && diag->errors == 0)
        diag_error(diag, (Loc){src, 0, 0}, "syntax error");
    return P.prog;
}
