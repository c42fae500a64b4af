/* parse.h - reading an Axon source into a Program (grammar/axon.y, axon.l).
 *
 * The scanner is reentrant and the parser pure: all state lives in Parser,
 * which travels through %param.  Syntax errors are reported through the
 * diagnostics and parsing recovers at the next `;` where it can.
 */
#ifndef AXONC_PARSE_H
#define AXONC_PARSE_H

#include "ast.h"

typedef struct Bracket {
    char ch;
    Loc loc;
} Bracket;

typedef struct Parser {
    Arena *arena;
    Diag *diag;
    const Source *src;
    Program *prog;
    int prelude;          /* the embedded prelude may declare operators */
    uint32_t pos;         /* scanner's byte offset */
    Bracket *open;        /* brackets not yet closed, innermost last */
    int nopen, capopen;
    int need_sep;         /* the last item needs a `;` before the next one */
    int too_deep;         /* the depth diagnostic was given for this item */
    int comment_start;    /* offset of an open block comment */
    int lex_error;        /* a lexical error since the last token */
    uint32_t last_end;    /* where the last token ended */
    PtrVec spare_vecs;    /* PtrVec headers of lists that nodes have taken */
} Parser;

/* Parses a whole source.  Returns the program; errors were reported to
 * diag (check diag->errors). */
Program *parse_source(Arena *a, Diag *diag, const Source *src, int prelude);

/* Called by the grammar's actions (parse.c). */
void parse_check_depth(Parser *P, int depth, Loc loc);

#endif
