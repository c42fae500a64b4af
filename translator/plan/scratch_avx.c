/* scratch_avx.c - fast.h's scratch functions for the avx target
 * (vectors of 32 bytes, a 6 x 16 tile): scratch_target.h. */
#define AXON__TARGET_VB 32
#define AXON__TARGET_MR 6
#define AXON__TARGET_NR 16
#define SCRATCH_TARGET_NAME scratch_target_avx
#include "scratch_target.h"
