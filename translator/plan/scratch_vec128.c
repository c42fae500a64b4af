/* scratch_vec128.c - fast.h's scratch functions for the vec128 target
 * (vectors of 16 bytes, a 6 x 8 tile): scratch_target.h. */
#define AXON__TARGET_VB 16
#define AXON__TARGET_MR 6
#define AXON__TARGET_NR 8
#define SCRATCH_TARGET_NAME scratch_target_vec128
#include "scratch_target.h"
