/* template.h - the header's templates (templates/, embedded at build
 * time) instantiated: a line ending in a marker comment (at-sign NAME
 * at-sign) is replaced by generated text; the tokens axon_tmpl_ /
 * AXON_TMPL_ become a function's prefix P_NAME_, and AXON_TMPL_GUARD the
 * include guard.  A comment opening with slash-star-bang is about the
 * template itself and is left out. */
#ifndef AXONC_TEMPLATE_H
#define AXONC_TEMPLATE_H

#include "arena.h"

typedef struct Subst {
    const char *marker;     /* "DOC" for the marker at-DOC-at */
    const char *text;       /* replaces the whole line (may be several lines) */
} Subst;

/* Copies tmpl into out, replacing marked lines and the placeholder tokens
 * (lower for axon_tmpl_, upper for AXON_TMPL_, guard for AXON_TMPL_GUARD;
 * NULL: left as they are). */
void instantiate_template(Buf *out, const char *tmpl, const Subst *subs, int nsubs, const char *lower,
                          const char *upper, const char *guard);
/* The same with the markers and their texts as two arrays (at most 8),
 * axon_tmpl_ and AXON_TMPL_ both by lower. */
void emit_template_into(Buf *out, const char *tmpl, const char *const *markers, const char *const *texts, int n,
                        const char *lower);

#endif
