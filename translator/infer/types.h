/* types.h - constructing and normalising element types, shapes and types. */
#ifndef AXONC_TYPES_H
#define AXONC_TYPES_H

#include "terms.h"

/* Element types. */
int elem_lookup(const char *name);        /* ElemPrim, or EL_VAR if not a type name */
const char *elem_name(int prim);
int elem_size(int prim);                  /* bytes */
int elem_accepts(int prim, int cls);      /* can literals of class cls have type prim */
Elem *elem_var(Ctx *c, const char *hint);
Elem *elem_prim(Ctx *c, int prim, const Origin *o);
Elem *elem_find(Elem *e);

/* Shapes. */
SVar *svar_new(Ctx *c, const char *hint);
Shape *shape_new(Ctx *c, uint32_t n, const Origin *o);
Shape *shape_of_var(Ctx *c, SVar *v, const Origin *o);
Shape *shape_norm(Ctx *c, Shape *s);      /* expand bound shape variables (in place) */
Shape *shape_slice(Ctx *c, Shape *s, uint32_t from, uint32_t to, const Origin *o);
Shape *shape_concat(Ctx *c, Shape *a, Shape *b, const Origin *o);
int shape_equal(Ctx *c, Shape *a, Shape *b);
int shape_rank(const Shape *s, int *known);        /* number of dims; *known if no variables */

/* Types. */
Type *type_var(Ctx *c, const char *hint);
Type *type_tensor(Ctx *c, Elem *e, Shape *s, const Origin *o);
Type *type_tuple(Ctx *c, uint32_t n, const Origin *o);
Type *type_func(Ctx *c, uint32_t n, const Origin *o);
Type *type_prune(Type *t);

/* Origins. */
Origin *origin_new(Ctx *c, Loc loc, const char *what, const char *rule, int arg);
Origin *origin_of(Ctx *c, Loc loc, OriginKind kind, const char *name, const char *rule, int arg);
const char *origin_text(Ctx *c, const Origin *o);

#endif
