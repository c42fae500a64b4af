/* compilation.c - what the later stages ask of a compilation
 * (compilation.h). */
#include "compilation.h"

int compile_own_item(const Compilation *cp, const Item *it)
{
    return it->loc.src == cp->src;
}
