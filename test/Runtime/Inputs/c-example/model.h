/* Stand-in for the header that `tadc --emit=header` writes for
 * examples/c/model.mlir: the entry points, and tad/runtime.h. */
#ifndef MODEL_H
#define MODEL_H

#include "tad/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* predict(f32[batch, 3], f32[3, 2]) -> f32[batch, 2] */
int32_t predict(const tad_tensor *args, int64_t num_args, tad_tensor *results,
                int64_t num_results);
/* predict_vjp(f32[batch, 3], f32[3, 2], f32[s1, 2]) -> (f32[batch, 2], f32[s1, 3], f32[3, 2]) */
int32_t predict_vjp(const tad_tensor *args, int64_t num_args,
                    tad_tensor *results, int64_t num_results);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MODEL_H */
