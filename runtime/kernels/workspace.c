/* ==== axon kernels: workspace.c begin =====================================
 * workspace.c - the workspace plan (kernels.h, axon-spec.md 9): where
 * each tensor that run() computes lives in the caller's workspace, found
 * at prepare() time for the actual sizes.  Included once per header.
 *
 * Greedy by size: the buffers largest first (ties by index), each at the
 * lowest multiple of 64 where it overlaps no buffer already placed whose
 * life [first, last] meets its own.  A buffer of size 0 gets offset 0 and
 * takes no room.  O(n^2) comparisons a buffer at worst; no memory but
 * order[].
 */

#define AXON__WORKSPACE_ALIGN 64

AXON_RUN_FN int64_t axon__plan_workspace(int n, const int64_t *size, const int *first, const int *last,
                                         int64_t *offset, int *order)
{
    int64_t total = 0;
    /* order: by size descending, then index ascending (insertion sort) */
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && size[order[j - 1]] < size[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (int t = 0; t < n; t++) {
        const int i = order[t];
        int64_t at = 0;
        int moved = 1;
        offset[i] = 0;
        if (size[i] <= 0)
            continue;
        /* Move past every placed, live-overlapping buffer that the range
         * [at, at + size) meets, until none does: at only grows, so each
         * buffer moves it at most once. */
        while (moved) {
            moved = 0;
            for (int u = 0; u < t; u++) {
                const int j = order[u];
                int64_t end;
                if (size[j] <= 0 || first[i] > last[j] || first[j] > last[i])
                    continue;
                if (offset[j] >= at + size[i] || at >= offset[j] + size[j])
                    continue;
                end = offset[j] + size[j];                      /* (checked below) */
                if (end > INT64_MAX - (AXON__WORKSPACE_ALIGN - 1))
                    return -1;
                at = (end + (AXON__WORKSPACE_ALIGN - 1)) / AXON__WORKSPACE_ALIGN * AXON__WORKSPACE_ALIGN;
                if (at > INT64_MAX - size[i])
                    return -1;
                moved = 1;
            }
        }
        offset[i] = at;
        if (at + size[i] > total)
            total = at + size[i];
    }
    return total;
}
/* ==== axon kernels: workspace.c end ======================================= */
