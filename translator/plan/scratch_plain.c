/* scratch_plain.c - fast.h's scratch functions for the plain target
 * (vectors of 0 bytes, a 4 x 4 tile): scratch_target.h. */
#define AXON__TARGET_VB 0
#define AXON__TARGET_MR 4
#define AXON__TARGET_NR 4
#define SCRATCH_TARGET_NAME scratch_target_plain
#include "scratch_target.h"
