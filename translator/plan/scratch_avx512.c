/* scratch_avx512.c - fast.h's scratch functions for the avx512 target
 * (vectors of 64 bytes, a 8 x 32 tile): scratch_target.h. */
#define AXON__TARGET_VB 64
#define AXON__TARGET_MR 8
#define AXON__TARGET_NR 32
#define SCRATCH_TARGET_NAME scratch_target_avx512
#include "scratch_target.h"
