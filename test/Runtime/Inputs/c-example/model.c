/* Stand-in for tadc's output for examples/c/model.mlir, written by hand:
 *   predict(x: f32[batch, 3], w: f32[3, 2]) -> tanh(x @ w)
 *   predict_vjp(x, w, dy) -> (y, dx, dw)
 * with the module table and boundary checks of generated code; the batch
 * is a dynamic size (-1 - k in a signature is the k-th one). */
#include "tad/runtime_internal.h"

#include <math.h>

#define ENTRY __attribute__((visibility("default"))) int32_t

static const int64_t shape_x[] = {-1, 3}, shape_w[] = {3, 2},
                     shape_y[] = {-1, 2}, shape_dy[] = {-2, 2},
                     shape_dx[] = {-2, 3};
static const tad_tensor_type x_t = {TAD_DTYPE_F32, 2, shape_x};
static const tad_tensor_type w_t = {TAD_DTYPE_F32, 2, shape_w};
static const tad_tensor_type y_t = {TAD_DTYPE_F32, 2, shape_y};
static const tad_tensor_type dy_t = {TAD_DTYPE_F32, 2, shape_dy};
static const tad_tensor_type dx_t = {TAD_DTYPE_F32, 2, shape_dx};
static const tad_tensor_type predict_args[] = {x_t, w_t};
static const tad_tensor_type predict_results[] = {y_t};
static const tad_tensor_type vjp_args[] = {x_t, w_t, dy_t};
static const tad_tensor_type vjp_results[] = {y_t, dx_t, w_t};

ENTRY predict(const tad_tensor *args, int64_t num_args, tad_tensor *results,
              int64_t num_results);
ENTRY predict_vjp(const tad_tensor *args, int64_t num_args,
                  tad_tensor *results, int64_t num_results);

static const tad_function_info functions[] = {
    {"predict", predict, 2, 1, predict_args, predict_results},
    {"predict_vjp", predict_vjp, 3, 3, vjp_args, vjp_results},
};
const tad_module_table __tad_module = {TAD_ABI_VERSION, 2, functions,
                                       TAD_VERSION_STRING};

static void forward(const float *x, const float *w, float *y, int64_t rows) {
  for (int64_t i = 0; i < rows; ++i)
    for (int j = 0; j < 2; ++j) {
      float h = 0;
      for (int k = 0; k < 3; ++k)
        h += x[i * 3 + k] * w[k * 2 + j];
      y[i * 2 + j] = tanhf(h);
    }
}

ENTRY predict(const tad_tensor *args, int64_t num_args, tad_tensor *results,
              int64_t num_results) {
  int32_t status = __tad_check_call(&__tad_module.functions[0], args, num_args,
                                    results, num_results);
  if (status != TAD_OK)
    return status;
  forward(args[0].data, args[1].data, results[0].data, args[0].shape[0]);
  return TAD_OK;
}

ENTRY predict_vjp(const tad_tensor *args, int64_t num_args,
                  tad_tensor *results, int64_t num_results) {
  int32_t status = __tad_check_call(&__tad_module.functions[1], args, num_args,
                                    results, num_results);
  if (status != TAD_OK)
    return status;
  const float *x = args[0].data, *w = args[1].data, *dy = args[2].data;
  float *y = results[0].data, *dx = results[1].data, *dw = results[2].data;
  float dh[4];
  if (args[0].shape[0] != 2 || args[2].shape[0] != 2)
    return TAD_ERROR_SHAPE; /* the stand-in's VJP handles 2 rows */
  forward(x, w, y, 2);
  for (int i = 0; i < 4; ++i)
    dh[i] = dy[i] * (1 - y[i] * y[i]);
  for (int i = 0; i < 2; ++i) /* dx = dh @ w^T */
    for (int k = 0; k < 3; ++k)
      dx[i * 3 + k] = dh[i * 2] * w[k * 2] + dh[i * 2 + 1] * w[k * 2 + 1];
  for (int k = 0; k < 3; ++k) /* dw = x^T @ dh */
    for (int j = 0; j < 2; ++j)
      dw[k * 2 + j] = x[k] * dh[j] + x[3 + k] * dh[2 + j];
  return TAD_OK;
}
