/* run_sample.h - how the sample programs run their network (not part of the
 * generated headers' API): every input filled with deterministic
 * pseudo-random values in [-0.5, 0.5), each output and the workspace
 * allocated from the plan, P_NAME_run() called once, and one line printed:
 * the outputs' checksum (the sum of their elements, 4 significant digits:
 * the last bits of a float sum may differ between libm versions), the
 * workspace, and the sum of the intermediates' sizes that the plan lists
 * (what every intermediate would take in a buffer of its own).  The samples'
 * tensors are f32 (element variables take --elem-type's default).  And
 * allocate_buffers(): every buffer a plan sizes, allocated and freed.
 * Include after a generated header that defines its P_IMPLEMENTATION. */
#ifndef SAMPLES_RUN_SAMPLE_H
#define SAMPLES_RUN_SAMPLE_H

#include <stdio.h>
#include <stdlib.h>

static inline float sample_value(unsigned long *seed)
{
    *seed = (*seed * 1103515245UL + 12345UL) & 0x7fffffffUL;
    return (float)((long)(*seed >> 8) - (1L << 22)) / (float)(1L << 23);
}

/* One buffer for each of the n sizes in bytes[] and of the m in more[]
 * (a plan's out_bytes, then its tmp_bytes), allocated at once; prints
 * "  allocated N bytes WHAT" with their total, then frees them. */
static inline void allocate_buffers(const char *what, int n, const int64_t bytes[], int m, const int64_t more[])
{
    void **buf = (void **)malloc((size_t)(n + m + 1) * sizeof *buf);
    int64_t total = 0;
    for (int i = 0; i < n + m; i++) {
        int64_t b = i < n ? bytes[i] : more[i - n];
        if (buf)
            buf[i] = malloc((size_t)(b > 0 ? b : 1));
        total += b;
    }
    printf("  allocated %lld bytes %s\n", (long long)total, what);
    for (int i = 0; buf && i < n + m; i++)
        free(buf[i]);
    free(buf);
}

/* F: P_NAME; plan: its prepared plan; in: the input shapes. */
#define RUN_SAMPLE(F, plan, in)                                                                         \
    do {                                                                                                \
        const void *data_[F##_NUM_INPUTS];                                                              \
        void *res_[F##_NUM_OUTPUTS > 0 ? F##_NUM_OUTPUTS : 1];                                          \
        unsigned long seed_ = 2026UL;                                                                   \
        double sum_ = 0, temps_ = 0;                                                                    \
        for (int i_ = 0; i_ < F##_NUM_INPUTS; i_++) {                                                   \
            int64_t n_ = axon_elements(&(in)[i_]);                                                      \
            float *p_ = (float *)malloc((size_t)(n_ > 0 ? n_ : 1) * sizeof(float));                    \
            for (int64_t k_ = 0; p_ && k_ < n_; k_++)                                                   \
                p_[k_] = sample_value(&seed_);                                                          \
            data_[i_] = p_;                                                                             \
        }                                                                                               \
        for (int o_ = 0; o_ < F##_NUM_OUTPUTS; o_++)                                                    \
            res_[o_] = malloc((size_t)((plan).out_bytes[o_] > 0 ? (plan).out_bytes[o_] : 1));           \
        void *ws_ = malloc((size_t)((plan).workspace_bytes > 0 ? (plan).workspace_bytes : 1));          \
        axon_error rerr_;                                                                               \
        int st_ = F##_run(&(plan), data_, res_, ws_, &rerr_);                                           \
        for (int o_ = 0; st_ == AXON_OK && o_ < F##_NUM_OUTPUTS; o_++)                                  \
            for (int64_t k_ = 0; k_ < (plan).out_elements[o_]; k_++)                                    \
                sum_ += ((const float *)res_[o_])[k_];                                                  \
        for (int t_ = 0; t_ < F##_NUM_TEMPS; t_++)                                                      \
            temps_ += (double)(plan).tmp_bytes[t_];                                                     \
        if (st_ == AXON_OK)                                                                             \
            printf("run: checksum %.4g; workspace %lld bytes (the intermediates: %.0f bytes)\n", sum_,  \
                   (long long)(plan).workspace_bytes, temps_);                                          \
        else                                                                                            \
            printf("run: %s: %s\n", axon_status_name(st_), rerr_.message);                             \
        for (int i_ = 0; i_ < F##_NUM_INPUTS; i_++)                                                     \
            free((void *)data_[i_]);                                                                    \
        for (int o_ = 0; o_ < F##_NUM_OUTPUTS; o_++)                                                    \
            free(res_[o_]);                                                                             \
        free(ws_);                                                                                      \
    } while (0)

#endif
