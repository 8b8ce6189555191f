/* Fitting a linear model with a tad-compiled gradient, from C.
 *
 * model.h and libmodel.so come from model.mlir through tad_add_model (see
 * CMakeLists.txt). loss_vjp returns the loss and its gradients with respect
 * to the weights w and the bias b; plain gradient descent on them recovers
 * the coefficients that generated the data.
 */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { N = 16, D = 3 };

int main(void) {
  const tad_module_table *module = tad_module_info();
  printf("tad %s: model compiled by tadc %s (ABI %d)\n", TAD_VERSION_STRING,
         module->tad_version, (int)module->abi_version);

  /* Data: y = x @ w_true + b_true, x on a fixed grid. */
  const float w_true[D] = {2.0f, -3.0f, 0.5f}, b_true = 1.25f;
  float x[N][D], y[N][1];
  for (int i = 0; i < N; ++i) {
    y[i][0] = b_true;
    for (int j = 0; j < D; ++j) {
      x[i][j] = (float)(((i * (j + 2) + 3 * j) % 7) - 3) / 3.0f;
      y[i][0] += x[i][j] * w_true[j];
    }
  }

  float w[D][1] = {{0.0f}, {0.0f}, {0.0f}}, b[1] = {0.0f};
  float l = 0.0f, dl = 1.0f, dw[D][1], db[1];
  const int64_t x_shape[] = {N, D}, y_shape[] = {N, 1}, w_shape[] = {D, 1},
                b_shape[] = {1};
  tad_tensor args[] = {{x, x_shape, 2, TAD_DTYPE_F32},
                       {y, y_shape, 2, TAD_DTYPE_F32},
                       {w, w_shape, 2, TAD_DTYPE_F32},
                       {b, b_shape, 1, TAD_DTYPE_F32},
                       {&dl, NULL, 0, TAD_DTYPE_F32}};
  tad_tensor results[] = {{&l, NULL, 0, TAD_DTYPE_F32},
                          {dw, w_shape, 2, TAD_DTYPE_F32},
                          {db, b_shape, 1, TAD_DTYPE_F32}};

  const float rate = 0.2f;
  for (int step = 0; step <= 300; ++step) {
    if (loss_vjp(args, 5, results, 3) != TAD_OK) {
      fprintf(stderr, "loss_vjp failed: %s\n", tad_last_error());
      return 1;
    }
    if (step % 100 == 0)
      printf("step %3d: loss %.6f\n", step, l);
    for (int j = 0; j < D; ++j)
      w[j][0] -= rate * dw[j][0];
    b[0] -= rate * db[0];
  }

  printf("w = [%.4f, %.4f, %.4f], b = %.4f\n", w[0][0], w[1][0], w[2][0],
         b[0]);
  float error = fabsf(b[0] - b_true);
  for (int j = 0; j < D; ++j)
    error = fmaxf(error, fabsf(w[j][0] - w_true[j]));
  printf("largest coefficient error %s 1e-3\n", error < 1e-3f ? "<" : ">=");
  return error < 1e-3f ? 0 : 1;
}
