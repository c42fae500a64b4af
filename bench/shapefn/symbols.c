/* symbols.c - the generated shape functions alone, compiled on their own
 * (run.sh: cc -O2 -ffreestanding -c), so that `nm -u` on the object lists
 * every external symbol they can call.  An empty list means they cannot
 * reach malloc or any other library function. */
#include "attention.h"
#include "transformer12.h"

typedef int (*shape_fn)(const axon_shape in[], axon_shape out[], axon_error *err);

shape_fn bench_shape_fns[] = {
    attention_softmax_shape,
    attention_attention_shape,
    transformer12_softmax_shape,
    transformer12_transformer12_shape,
};

int (*bench_attention_prepare)(const axon_shape in[], attention_attention_plan *plan, axon_error *err) =
    attention_attention_prepare;
int (*bench_transformer12_prepare)(const axon_shape in[], transformer12_transformer12_plan *plan,
                                   axon_error *err) = transformer12_transformer12_prepare;
