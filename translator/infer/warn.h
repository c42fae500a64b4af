/* warn.h - the warnings of axon-spec.md section 6b: what type-checks but is
 * probably not meant (warn.c). */
#ifndef AXONC_WARN_H
#define AXONC_WARN_H

#include "ast.h"
#include "elab.h"
#include "terms.h"

/* After a top-level item of the user's program is inferred: its scope's
 * annotation names and its scheme.  Prints the warnings (diag_warning). */
void warn_item(Ctx *c, const Item *it, Scope *sc, const Scheme *s);

#endif
