/* plan_print.h - a function's run-time plan (plan.h) as text, one step per
 * line (`axonc emit --format=plan`). */
#ifndef AXONC_PLAN_PRINT_H
#define AXONC_PLAN_PRINT_H

#include "plan.h"

void plan_print(Plan *p, Buf *out);

#endif
