/* phantom.h - sizes fixed whenever the tensors are not empty (phantom.c),
 * at the end of an item (scheme.c). */
#ifndef AXONC_PHANTOM_H
#define AXONC_PHANTOM_H

#include "terms.h"

/* Each equation M * (x - v) = 0 among the live constraints whose x occurs
 * only beside M fixes x = v. */
void fix_phantoms(Ctx *c, Type *t, PtrVec *live, int level);

#endif
