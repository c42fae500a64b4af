/* axon.y - the Axon grammar (pure bison parser with byte-span locations).
 *
 * The language is axon-spec.md sections 2-4.  Each rule group below quotes
 * the production it implements.  Patterns are parsed as expression lists and
 * converted (a statement `h, c = state;` and a final expression `h, c` share
 * a prefix), and `;` between top-level items may be left out after a `}`;
 * both are checked in the actions.
 */
%code requires {
#include "ast.h"
struct Parser;
}

%code provides {
int yylex(YYSTYPE *yylval, YYLTYPE *yylloc, void *scanner);
}

%code {
#include <string.h>

#include "parse.h"

/* The location of a rule spans from its first to its last symbol. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                      \
    do {                                                                 \
        if (N) {                                                         \
            (Cur).src = YYRHSLOC(Rhs, 1).src;                            \
            (Cur).start = YYRHSLOC(Rhs, 1).start;                        \
            (Cur).end = YYRHSLOC(Rhs, N).end;                            \
        } else {                                                         \
            (Cur).src = YYRHSLOC(Rhs, 0).src;                            \
            (Cur).start = (Cur).end = YYRHSLOC(Rhs, 0).end;              \
        }                                                                \
    } while (0)

#define A (P->arena)
#define YYMAXDEPTH 10000

static Item *add_item(struct Parser *P, ItemKind kind, const char *name, Loc loc, Loc name_loc);
static void add_import(struct Parser *P, const char *path, Loc loc, Loc path_loc);
static Expr *tuple_of(struct Parser *P, PtrVec *items, Loc loc);
static PtrVec *vec_of(struct Parser *P, void *first);
static PtrVec take(struct Parser *P, PtrVec *v);
static Expr *dims_value(struct Parser *P, PtrVec *dims, Loc loc);
static WhereClause *where_clause(struct Parser *P, char op, DExpr *l, DExpr *r, Loc loc);
static DExpr *negate_first(struct Parser *P, DExpr *d, Loc minus);
static Stmt *make_stmt(struct Parser *P, Expr *lhs, TExpr *ann, Expr *rhs, Loc loc);
static Expr *make_fn(struct Parser *P, PtrVec *params, TExpr *ret, PtrVec *stmts, Expr *body, Loc loc, Loc body_loc);

/* Only reached when the parser's stack overflows (YYMAXDEPTH): the input
 * nests brackets deeper than any program needs.  (Syntax errors go through
 * yyreport_syntax_error.) */
static void yyerror(Loc *loc, void *scanner, struct Parser *P, const char *msg)
{
    (void)scanner;
    (void)msg;
    parse_check_depth(P, AST_MAX_DEPTH + 1, *loc);
}
}

%define api.pure full
%define api.location.type {Loc}
%define parse.error custom
%locations
%expect 0
%param {void *scanner}
%parse-param {struct Parser *P}

%union {
    int64_t ival;
    double fval;
    const char *str;
    Expr *expr;
    TExpr *texpr;
    SExpr *sexpr;
    SAtom *satom;
    DExpr *dexpr;
    Param *param;
    Stmt *stmt;
    WhereClause *clause;
    PtrVec *vec;           /* a pointer: the union stays 8 bytes, so that
                            * bison's copies of it are not split stores */
}

%token END 0 "end of file"
%token <str> IDENT "identifier"
%token <ival> INT "integer"
%token <fval> FLOAT "number"
%token INF "inf"
%token FN "fn"
%token EXTERN "extern"
%token ARROW "->"
%token WHERE "where"
%token IMPORT "import"
%token <str> STRING "string"
%token LE "<="
%token <str> SHAPEFN "elements or rank"

%type <expr> expr postfix primary fnexpr arg exprlist_expr
%type <vec> args exprlist params stmts types shapes dims where_opt clauses
%type <clause> clause
%type <param> param
%type <stmt> stmt
%type <texpr> type ret_opt
%type <sexpr> shape
%type <satom> satom
%type <dexpr> dim sdim dprim pdim
%type <str> opname

/* `t g` is always read as a tensor type with shape variable g. */
%precedence TYPE_NAME
%precedence IDENT
%left '+' '-'
%left '*' '/' '%'
%precedence UMINUS

%%

/* program := { item [;] } -- items are separated by `;`, optional after `}` */
program
    : %empty
    | program ';'               { P->need_sep = 0; }
    | program item
    | program error ';'         { P->need_sep = 0; yyerrok; }
    ;

/* item := name = expr | fn (...) {...} | extern name : type
 *       | import "file.axon"   (before the other items: spec section 2) */
item
    : IDENT '=' expr            { add_item(P, IT_BIND, $1, @$, @1)->value = $3; }
    | IMPORT STRING             { add_import(P, $2, @$, @2); }
    | fnexpr
        {
            Loc fn = @1;            /* the main function is named by its `fn` */
            fn.end = fn.start + 2;
            add_item(P, IT_MAIN, ast_main_name(A, P->src->name), @$, fn)->value = $1;
        }
    | EXTERN IDENT ':' type where_opt
        {
            Item *it = add_item(P, IT_EXTERN, $2, @$, @2);
            it->type = $4;
            if ($5) it->where = take(P, $5);
        }
    | EXTERN opname ':' type
        {
            if (!P->prelude)
                diag_error(P->diag, @2, "only the built-in prelude may declare an operator");
            add_item(P, IT_EXTERN, $2, @$, @2)->type = $4;
        }
    ;

opname
    : '+' { $$ = "+"; } | '-' { $$ = "-"; } | '*' { $$ = "*"; } | '/' { $$ = "/"; }
    ;

/* expr := expr (+|-|*|/) expr | - expr | postfix      (* and / bind tighter) */
expr
    : expr '+' expr             { $$ = ast_binary(A, "+", $1, $3, @2); parse_check_depth(P, $$->depth, @$); }
    | expr '-' expr             { $$ = ast_binary(A, "-", $1, $3, @2); parse_check_depth(P, $$->depth, @$); }
    | expr '*' expr             { $$ = ast_binary(A, "*", $1, $3, @2); parse_check_depth(P, $$->depth, @$); }
    | expr '/' expr             { $$ = ast_binary(A, "/", $1, $3, @2); parse_check_depth(P, $$->depth, @$); }
    | '-' expr %prec UMINUS
        {
            $$ = ast_expr(A, EX_NEG, @$); $$->u.op.l = $2; ast_set_op($$, @1); $$->name = "__neg";
            AST_DEEPER($$, $2); parse_check_depth(P, $$->depth, @$);
        }
    | postfix
    ;

/* postfix := primary | postfix ( args ) */
postfix
    : primary
    | postfix '(' ')'
        { $$ = ast_call(A, $1, @$); parse_check_depth(P, $$->depth, @$); }
    | postfix '(' args ')'
        {
            $$ = ast_call(A, $1, @$); $$->u.call.args = take(P, $3);
            for (int i = 0; i < $$->u.call.args.n; i++) AST_DEEPER($$, (Expr *)$$->u.call.args.items[i]);
            parse_check_depth(P, $$->depth, @$);
        }
    ;

/* arg := expr | + | - | * | /     (an operator in argument position is the
 *                                  operator itself, as in reduce(+, 0f, z)) */
args
    : arg                       { $$ = vec_of(P, $1); }
    | args ',' arg              { $$ = $1; pv_push(A, $$, $3); }
    ;
arg
    : expr
    | opname                    { $$ = ast_expr(A, EX_OP, @$); $$->name = $1; }
    ;

/* primary := name | literal | ( expr ) | ( expr, expr, ... ) | fn */
primary
    : IDENT                     { $$ = ast_expr(A, EX_NAME, @$); $$->name = $1; }
    | SHAPEFN                   { $$ = ast_expr(A, EX_NAME, @$); $$->name = $1; }
    | INT                       { $$ = ast_expr(A, EX_INT, @$); $$->u.ival = $1; }
    | FLOAT                     { $$ = ast_expr(A, EX_FLOAT, @$); $$->u.fval = $1; }
    | INF                       { $$ = ast_expr(A, EX_FLOAT, @$); $$->name = "inf"; }
    | '(' expr ')'              { $$ = $2; $$->depth++; parse_check_depth(P, $$->depth, @$); }
    | STRING                    { $$ = ast_expr(A, EX_STRING, @$); $$->name = $1; }
    | '[' ']'                   { $$ = dims_value(P, NULL, @$); }
    | '[' dims ']'              { $$ = dims_value(P, $2, @$); }
    | '(' expr ',' exprlist ')'
        {
            PtrVec *v = vec_of(P, $2);
            for (int i = 0; i < $4->n; i++) pv_push(A, v, $4->items[i]);
            take(P, $4);
            $$ = tuple_of(P, v, @$);
        }
    | fnexpr
    ;

/* fn := fn ( [param {, param}] ) [: type] { body }
 * param := name [: type]
 * body := { stmt } exprlist [;] */
fnexpr
    : FN '(' ')' ret_opt where_opt '{' stmts exprlist_expr semi_opt '}'
        { $$ = make_fn(P, NULL, $4, $7, $8, @$, @8); if ($5) $$->u.lam->where = take(P, $5); }
    | FN '(' params ')' ret_opt where_opt '{' stmts exprlist_expr semi_opt '}'
        { $$ = make_fn(P, $3, $5, $8, $9, @$, @9); if ($6) $$->u.lam->where = take(P, $6); }
    | FN '(' ')' ret_opt where_opt '{' stmts error '}'
        { $$ = ast_expr(A, EX_NAME, @$); $$->name = "_"; yyerrok; }
    | FN '(' params ')' ret_opt where_opt '{' stmts error '}'
        { $$ = ast_expr(A, EX_NAME, @$); $$->name = "_"; yyerrok; }
    ;
ret_opt
    : %empty                    { $$ = NULL; }
    | ':' type                  { $$ = $2; }
    ;
semi_opt
    : %empty
    | ';'
    ;
params
    : param                     { $$ = vec_of(P, $1); }
    | params ',' param          { $$ = $1; pv_push(A, $$, $3); }
    ;
param
    : IDENT
        { $$ = ar_alloc(A, sizeof *$$); $$->name = $1; $$->loc = @1; P->prog->nbinders++; }
    | IDENT ':' type
        { $$ = ar_alloc(A, sizeof *$$); $$->name = $1; $$->loc = @1; $$->ann = $3; P->prog->nbinders++; }
    ;

/* stmt := pattern = exprlist ; | name : type = exprlist ; */
stmts
    : %empty                    { $$ = vec_of(P, NULL); }
    | stmts stmt                { $$ = $1; if ($2) pv_push(A, $$, $2); }
    ;
stmt
    : exprlist_expr '=' exprlist_expr ';'   { $$ = make_stmt(P, $1, NULL, $3, @$); }
    | IDENT ':' type '=' exprlist_expr ';'
        {
            Expr *name = ast_expr(A, EX_NAME, @1); name->name = $1;
            $$ = make_stmt(P, name, $3, $5, @$);
        }
    | error ';'                 { $$ = NULL; yyerrok; }
    ;

/* exprlist := expr {, expr}   (more than one makes a tuple) */
exprlist_expr
    : exprlist
        {
            if ($1->n == 1) { $$ = $1->items[0]; take(P, $1); }
            else $$ = tuple_of(P, $1, @$);
        }
    ;
exprlist
    : expr                      { $$ = vec_of(P, $1); }
    | exprlist ',' expr         { $$ = $1; pv_push(A, $$, $3); }
    ;

/* type := name                  a whole-type variable, or a scalar (f32)
 *       | elem shape            f32 [n, n], t s @ [4]
 *       | ( type, ... )         a tuple (one type in parentheses is itself)
 *       | ( [type, ...] ) -> type */
type
    : IDENT %prec TYPE_NAME
        { $$ = ast_type(A, TX_NAME, @$); $$->name = $1; $$->name_loc = @1; }
    | IDENT shape
        {
            $$ = ast_type(A, TX_TENSOR, @$); $$->name = $1; $$->name_loc = @1; $$->shape = $2;
            AST_DEEPER($$, $2); parse_check_depth(P, $$->depth, @$);
        }
    | '(' ')' ARROW type
        { $$ = ast_type(A, TX_FUNC, @$); $$->ret = $4; AST_DEEPER($$, $4); }
    | '(' types ')'
        {
            if ($2->n == 1) {
                $$ = $2->items[0];
                $$->depth++;
                take(P, $2);
            } else {
                $$ = ast_type(A, TX_TUPLE, @$); $$->items = take(P, $2);
                for (int i = 0; i < $$->items.n; i++) AST_DEEPER($$, (TExpr *)$$->items.items[i]);
            }
            parse_check_depth(P, $$->depth, @$);
        }
    | '(' types ')' ARROW type
        {
            $$ = ast_type(A, TX_FUNC, @$); $$->items = take(P, $2); $$->ret = $5;
            for (int i = 0; i < $$->items.n; i++) AST_DEEPER($$, (TExpr *)$$->items.items[i]);
            AST_DEEPER($$, $5); parse_check_depth(P, $$->depth, @$);
        }
    ;
types
    : type                      { $$ = vec_of(P, $1); }
    | types ',' type            { $$ = $1; pv_push(A, $$, $3); }
    ;

/* shape := satom {@ satom}
 * satom := [] | [dim, ...] | name | broadcast(shape, ...) */
shape
    : satom                     { $$ = ast_shape(A, $1); }
    | shape '@' satom
        { $$ = $1; pv_push(A, &$$->atoms, $3); $$->loc = @$; AST_DEEPER($$, $3); }
    ;
satom
    : IDENT                     { $$ = ast_satom(A, SA_VAR, @$); $$->name = $1; }
    | '[' ']'                   { $$ = ast_satom(A, SA_DIMS, @$); }
    | '[' dims ']'
        {
            $$ = ast_satom(A, SA_DIMS, @$); $$->dims = take(P, $2);
            for (int i = 0; i < $2->n; i++) AST_DEEPER($$, (DExpr *)$2->items[i]);
        }
    | IDENT '(' shapes ')'
        {
            $$ = ast_satom(A, SA_BCAST, @$); $$->name = $1; $$->shapes = take(P, $3);
            for (int i = 0; i < $3->n; i++) AST_DEEPER($$, (SExpr *)$3->items[i]);
            parse_check_depth(P, $$->depth, @$);
        }
    ;
shapes
    : shape                     { $$ = vec_of(P, $1); }
    | shapes ',' shape          { $$ = $1; pv_push(A, $$, $3); }
    ;

/* where := where clause {, clause}      clause := dim = dim | dim <= dim
 * (spec section 5b: the rules a signature cannot say with its shapes) */
where_opt
    : %empty                    { $$ = NULL; }
    | WHERE clauses             { $$ = $2; }
    ;
clauses
    : clause                    { $$ = vec_of(P, $1); }
    | clauses ',' clause        { $$ = $1; pv_push(A, $$, $3); }
    ;
clause
    : dim '=' dim               { $$ = where_clause(P, '=', $1, $3, @$); }
    | dim LE dim                { $$ = where_clause(P, '<', $1, $3, @$); }
    ;

/* dim := dim (+|-|*|/|%) dim | integer | name | * | ? | ( dim )
 *      | (op dim dim)          the paper's prefix form, e.g. (* 2 m)
 *      | broadcast(dim, ...)
 *      | elements(shape) | rank(shape)     spec section 5b */
dims
    : sdim                      { $$ = vec_of(P, $1); }
    | dims ',' sdim             { $$ = $1; pv_push(A, $$, $3); }
    ;
dim
    : dim '+' dim               { $$ = ast_dim_bin(A, '+', $1, $3, @$); parse_check_depth(P, $$->depth, @$); }
    | dim '-' dim               { $$ = ast_dim_bin(A, '-', $1, $3, @$); parse_check_depth(P, $$->depth, @$); }
    | dim '*' dim               { $$ = ast_dim_bin(A, '*', $1, $3, @$); parse_check_depth(P, $$->depth, @$); }
    | dim '/' dim               { $$ = ast_dim_bin(A, '/', $1, $3, @$); parse_check_depth(P, $$->depth, @$); }
    | dim '%' dim               { $$ = ast_dim_bin(A, '%', $1, $3, @$); parse_check_depth(P, $$->depth, @$); }
    | dprim
    ;
/* An item of [d, ...] may start with a minus (`[-1]`, an axis counted from
 * the end): it binds tighter than the operators (-a + b is (-a) + b).
 * Not inside parentheses, where `(- a b)` is the prefix form. */
sdim
    : dim
    | '-' dim %prec UMINUS
        { $$ = negate_first(P, $2, @1); $$->loc = @$; parse_check_depth(P, $$->depth, @$); }
    ;
dprim
    : pdim
    | '*'                       { $$ = ast_dim(A, DX_RAGGED, @$); }
    | IDENT '(' dims ')'
        {
            $$ = ast_dim(A, DX_BCAST, @$); $$->name = $1; $$->args = take(P, $3);
            for (int i = 0; i < $3->n; i++) AST_DEEPER($$, (DExpr *)$3->items[i]);
            parse_check_depth(P, $$->depth, @$);
        }
    | SHAPEFN '(' shape ')'
        {
            $$ = ast_dim(A, $1[0] == 'e' ? DX_ELEMS : DX_RANK, @$); $$->shape = $3;
            AST_DEEPER($$, $3); parse_check_depth(P, $$->depth, @$);
        }
    ;
/* Operands of the prefix form: no bare `*` (it would read as the operator). */
pdim
    : INT                       { $$ = ast_dim(A, DX_INT, @$); $$->ival = $1; }
    | IDENT                     { $$ = ast_dim(A, DX_NAME, @$); $$->name = $1; }
    | '?'                       { $$ = ast_dim(A, DX_DYN, @$); }
    | '(' dim ')'               { $$ = $2; $$->depth++; parse_check_depth(P, $$->depth, @$); }
    | '(' opname pdim pdim ')'  { $$ = ast_dim_bin(A, $2[0], $3, $4, @$); parse_check_depth(P, $$->depth, @$); }
    ;

%%

/* A new item of the program (its value or type is the caller's to set).
 * Items after the first need a `;` before them, unless the previous item
 * ended with a `}` (axon-spec.md section 2). */
static Item *add_item(struct Parser *P, ItemKind kind, const char *name, Loc loc, Loc name_loc)
{
    if (P->need_sep)
        diag_error(P->diag, loc, "expected ';' before this item");
    Item *it = ar_alloc(A, sizeof *it);
    it->kind = kind;
    it->name = name;
    it->loc = loc;
    it->name_loc = name_loc;
    pv_push(A, &P->prog->items, it);
    P->need_sep = !(loc.end > 0 && P->src->text[loc.end - 1] == '}');
    P->too_deep = 0;
    return it;
}

/* `import "file.axon"`: a file whose items this one sees (resolved by the
 * driver: compile.c).  It comes before the file's other items. */
static void add_import(struct Parser *P, const char *path, Loc loc, Loc path_loc)
{
    if (P->need_sep)
        diag_error(P->diag, loc, "expected ';' before this item");
    if (P->prog->items.n)
        diag_error(P->diag, loc, "an import comes before the file's other items");
    if (P->prelude)
        diag_error(P->diag, loc, "the built-in prelude imports nothing");
    Import *im = ar_alloc(A, sizeof *im);
    im->path = path;
    im->loc = loc;
    im->path_loc = path_loc;
    pv_push(A, &P->prog->imports, im);
    P->need_sep = 1;
}

/* A list for a rule's value: first in it, or empty when first is NULL.
 * Its header is recycled once a node has taken the list (take). */
static PtrVec *vec_of(struct Parser *P, void *first)
{
    PtrVec *v = P->spare_vecs.n ? P->spare_vecs.items[--P->spare_vecs.n] : ar_alloc(A, sizeof *v);
    *v = (PtrVec){ 0 };
    if (first)
        pv_push(A, v, first);
    return v;
}

/* The list's contents, for a node to keep; its header is free again. */
static PtrVec take(struct Parser *P, PtrVec *v)
{
    PtrVec r = *v;
    pv_push(A, &P->spare_vecs, v);
    return r;
}

/* `- d` at the start of a dims item: the leftmost operand of d's binary
 * operators (all looser than the minus) becomes 0 - operand. */
static DExpr *negate_first(struct Parser *P, DExpr *d, Loc minus)
{
    DExpr **at = &d;
    while ((*at)->kind == DX_BIN) {
        (*at)->depth++;                 /* (one level more below) */
        at = &(*at)->l;
    }
    DExpr *zero = ast_dim(A, DX_INT, minus);
    zero->ival = 0;
    Loc loc = (*at)->loc;
    loc.start = minus.start;
    *at = ast_dim_bin(A, '-', zero, *at, loc);
    return d;
}

static WhereClause *where_clause(struct Parser *P, char op, DExpr *l, DExpr *r, Loc loc)
{
    WhereClause *w = ar_alloc(A, sizeof *w);
    w->loc = loc;
    w->op = op;
    w->l = l;
    w->r = r;
    return w;
}

/* [d1, ...] in an expression: a value of type dims [d1, ...] (spec section
 * 5b), kept as that type's annotation. */
static Expr *dims_value(struct Parser *P, PtrVec *dims, Loc loc)
{
    SAtom *at = ast_satom(A, SA_DIMS, loc);
    if (dims) {
        at->dims = take(P, dims);
        for (int i = 0; i < at->dims.n; i++)
            AST_DEEPER(at, (DExpr *)at->dims.items[i]);
    }
    TExpr *t = ast_type(A, TX_TENSOR, loc);
    t->name = "dims";
    t->name_loc = loc;
    t->shape = ast_shape(A, at);
    AST_DEEPER(t, t->shape);
    Expr *e = ast_expr(A, EX_DIMS, loc);
    e->u.dims = t;
    AST_DEEPER(e, t);
    parse_check_depth(P, e->depth, loc);
    return e;
}

static Expr *tuple_of(struct Parser *P, PtrVec *items, Loc loc)
{
    Expr *e = ast_expr(A, EX_TUPLE, loc);
    e->u.call.args = *items;
    for (int i = 0; i < items->n; i++)
        AST_DEEPER(e, (Expr *)items->items[i]);
    take(P, items);
    parse_check_depth(P, e->depth, loc);
    return e;
}

static Stmt *make_stmt(struct Parser *P, Expr *lhs, TExpr *ann, Expr *rhs, Loc loc)
{
    Loc bad;
    Pattern *pat = ast_pattern_from_expr(A, lhs, &bad);
    if (!pat) {
        diag_error(P->diag, bad, "invalid pattern: expected a name, '_' or a tuple of patterns");
        return NULL;
    }
    Stmt *s = ar_alloc(A, sizeof *s);
    s->loc = loc;
    s->pat = pat;
    P->prog->nbinders += lhs->kind == EX_TUPLE ? (uint32_t)lhs->u.call.args.n : 1;
    s->ann = ann;
    s->value = rhs;
    return s;
}

static Expr *make_fn(struct Parser *P, PtrVec *params, TExpr *ret, PtrVec *stmts, Expr *body, Loc loc, Loc body_loc)
{
    Expr *e = ast_expr(A, EX_FN, loc);
    FnExpr *f = ar_alloc(A, sizeof *f);
    if (params)                         /* NULL: fn () */
        f->params = take(P, params);
    f->ret = ret;
    f->stmts = take(P, stmts);
    f->body = body;
    f->body_loc = body_loc;
    e->u.lam = f;
    AST_DEEPER(e, body);
    for (int i = 0; i < stmts->n; i++)
        AST_DEEPER(e, ((Stmt *)stmts->items[i])->value);
    parse_check_depth(P, e->depth, loc);
    return e;
}

/* Syntax errors name what was found and what was expected; when the
 * innermost open bracket's closer is among the expected tokens, the error
 * says which bracket it would close (as Lua does). */
int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner, struct Parser *P)
{
    (void)scanner;
    /* Right after a bad character, the parser's complaint is only its echo. */
    if (P->lex_error) {
        P->lex_error = 0;
        return 0;
    }
    enum { MAXEXP = 6, ALLEXP = 64 };
    yysymbol_kind_t exp[ALLEXP];
    int n = yypcontext_expected_tokens(ctx, exp, ALLEXP);
    /* Where an expression may start, say so rather than list every token. */
    int expr_start = 0, item_start = 0;
    for (int i = 0; i < n; i++) {
        if (exp[i] == YYSYMBOL_INT)
            expr_start = 1;
        if (exp[i] == YYSYMBOL_EXTERN)     /* where a top-level item may start */
            item_start = 1;
    }
    if (expr_start) {
        int k = 0;
        for (int i = 0; i < n; i++)
            if (exp[i] != YYSYMBOL_FN && exp[i] != YYSYMBOL_IDENT && exp[i] != YYSYMBOL_SHAPEFN && exp[i] != YYSYMBOL_INT &&
                exp[i] != YYSYMBOL_FLOAT && exp[i] != YYSYMBOL_INF && exp[i] != YYSYMBOL_STRING &&
                strcmp(yysymbol_name(exp[i]), "'('") != 0 && strcmp(yysymbol_name(exp[i]), "'-'") != 0 &&
                strcmp(yysymbol_name(exp[i]), "'['") != 0)
                exp[k++] = exp[i];
        n = k;
    }
    yysymbol_kind_t got = yypcontext_token(ctx);
    const Loc *loc = yypcontext_location(ctx);
    char found[64];
    if (got == YYSYMBOL_YYEOF || got == YYSYMBOL_YYEMPTY) {
        snprintf(found, sizeof found, "end of file");
    } else {
        uint32_t len = loc->end - loc->start;
        if (len > 40)
            len = 40;
        snprintf(found, sizeof found, "'%.*s'", (int)len, P->src->text + loc->start);
        for (char *c = found; *c; c++)
            if ((unsigned char)*c < 32 || (unsigned char)*c >= 127)
                *c = '?';
    }
    char expected[256] = "";
    size_t k = 0;
    /* The expected tokens are listed when they are few. */
    int listed = !item_start && n > 0 && n < MAXEXP;
    if (item_start)
        k += (size_t)snprintf(expected, sizeof expected, "a top-level item (a binding 'name = ...', 'fn' or 'extern')");
    else if (expr_start)
        k += (size_t)snprintf(expected, sizeof expected, "an expression");
    if (listed) {
        for (int i = 0; i < n && k < sizeof expected; i++) {
            const char *name = yysymbol_name(exp[i]);
            /* keywords and -> are quoted like the other tokens */
            int quote = exp[i] == YYSYMBOL_FN || exp[i] == YYSYMBOL_EXTERN || exp[i] == YYSYMBOL_INF ||
                        exp[i] == YYSYMBOL_ARROW;
            k += (size_t)snprintf(expected + k, sizeof expected - k, "%s%s%s%s",
                                  i == 0 && !expr_start ? "" : i == n - 1 ? " or " : ", ", quote ? "'" : "",
                                  name, quote ? "'" : "");
        }
    }
    char closing[96] = "";
    /* The unexpected token may itself have opened a bracket. */
    int top = P->nopen - 1;
    if (top >= 0 && P->open[top].loc.start == loc->start)
        top--;
    if (top >= 0 && listed) {
        Bracket *b = &P->open[top];
        char closer = b->ch == '(' ? ')' : b->ch == '[' ? ']' : '}';
        for (int i = 0; i < n; i++) {
            const char *name = yysymbol_name(exp[i]);
            if (name[0] == '\'' && name[1] == closer) {
                int line, col;
                src_line_col(P->src, b->loc.start, &line, &col);
                snprintf(closing, sizeof closing, " (to close '%c' at line %d, column %d)", b->ch, line, col);
            }
        }
    }
    if (expected[0])
        diag_error(P->diag, *loc, "syntax error: unexpected %s, expected %s%s", found, expected, closing);
    else
        diag_error(P->diag, *loc, "syntax error: unexpected %s", found);
    return 0;
}
