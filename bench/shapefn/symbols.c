/* symbols.c - the generated shape functions alone, compiled on their own
 * (run.sh: cc -O2 -ffreestanding -c), so that `nm -u` on the object lists
 * every external symbol they can call.  An empty list means they cannot
 * reach malloc or any other library function.  Every function of the two
 * headers (bench/shapefn/attention.axon, transformer12.axon) is here: its
 * _shape, _prepare, _solve and _temp_name. */
#include "attention.h"
#include "transformer12.h"

typedef int (*shape_fn)(const axon_shape in[], axon_shape out[], axon_error *err);

shape_fn bench_shape_fns[] = {
    attention_attention_shape,
    transformer12_softmax_shape,
    transformer12_transformer12_shape,
};

int (*bench_attention_prepare)(const axon_shape in[], attention_attention_plan *plan, axon_error *err) =
    attention_attention_prepare;
int (*bench_transformer12_softmax_prepare)(const axon_shape in[], transformer12_softmax_plan *plan,
                                           axon_error *err) = transformer12_softmax_prepare;
int (*bench_transformer12_prepare)(const axon_shape in[], transformer12_transformer12_plan *plan,
                                   axon_error *err) = transformer12_transformer12_prepare;

int (*bench_attention_solve)(const axon_shape *in, axon_shape *out, axon_shape *tmp, attention_attention_dims *dims,
                             axon_shape *out_max, axon_shape *tmp_max, axon_error *err) = attention_attention_solve;
int (*bench_transformer12_softmax_solve)(const axon_shape *in, axon_shape *out, axon_shape *tmp,
                                         transformer12_softmax_dims *dims, axon_shape *out_max, axon_shape *tmp_max,
                                         axon_error *err) = transformer12_softmax_solve;
int (*bench_transformer12_solve)(const axon_shape *in, axon_shape *out, axon_shape *tmp,
                                 transformer12_transformer12_dims *dims, axon_shape *out_max, axon_shape *tmp_max,
                                 axon_error *err) = transformer12_transformer12_solve;

const char *(*bench_temp_names[])(int i) = {
    attention_attention_temp_name,
    transformer12_softmax_temp_name,
    transformer12_transformer12_temp_name,
};
