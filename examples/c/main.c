/* Calling a tad-compiled model from C.
 *
 * libmodel.so and model.h come from model.mlir (see the Makefile):
 *
 *   tadc model.mlir --vjp=predict -o libmodel.so
 *   tadc model.mlir --vjp=predict --emit=header -o model.h
 *
 * model.h declares the entry points and includes tad/runtime.h:
 *
 *   predict(x: f32[batch, 3], w: f32[3, 2]) -> y: f32[batch, 2]
 *   predict_vjp(x, w, dy: f32[batch, 2]) -> (y, dx: f32[batch, 3],
 *                                            dw: f32[3, 2])
 *
 * `batch` is a dynamic size: one module serves every number of rows. The
 * module reads it from x's shape and checks that dy, y and dx have it too.
 *
 * Every call is destination-passing: the caller owns all buffers, passes
 * them as tad_tensor descriptors, and checks the returned status.
 */
#include "model.h"

#include <inttypes.h>
#include <stdio.h>

static void print_type(const tad_tensor_type *t) {
  printf("%s[", tad_dtype_name(t->dtype));
  /* A dynamic size -1 - k is the k-th dynamic size of the signature. */
  for (int32_t d = 0; d < t->rank; ++d) {
    if (t->shape[d] < 0)
      printf("%ss%" PRId64, d ? ", " : "", -1 - t->shape[d]);
    else
      printf("%s%" PRId64, d ? ", " : "", t->shape[d]);
  }
  printf("]");
}

/* Lists the module's functions from its metadata; no header needed. */
static void print_signatures(void) {
  const tad_module_table *module = tad_module_info();
  printf("module (ABI %" PRId32 "):\n", module->abi_version);
  for (int32_t i = 0; i < module->num_functions; ++i) {
    const tad_function_info *fn = &module->functions[i];
    printf("  %s(", fn->name);
    for (int32_t a = 0; a < fn->num_args; ++a) {
      if (a)
        fputs(", ", stdout);
      print_type(&fn->args[a]);
    }
    printf(") -> (");
    for (int32_t r = 0; r < fn->num_results; ++r) {
      if (r)
        fputs(", ", stdout);
      print_type(&fn->results[r]);
    }
    printf(")\n");
  }
}

static void print_matrix(const char *name, const float *m, int rows,
                         int cols) {
  printf("%s =\n", name);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j)
      printf(" %8.4f", m[i * cols + j]);
    printf("\n");
  }
}

int main(void) {
  print_signatures();

  float x[2][3] = {{0.1f, 0.2f, 0.3f}, {0.4f, 0.5f, 0.6f}};
  float w[3][2] = {{1.0f, -1.0f}, {0.5f, 0.25f}, {-0.5f, 2.0f}};
  float y[2][2];
  const int64_t x_shape[] = {2, 3}, w_shape[] = {3, 2}, y_shape[] = {2, 2};

  /* y = predict(x, w) */
  tad_tensor args[] = {{x, x_shape, 2, TAD_DTYPE_F32},
                       {w, w_shape, 2, TAD_DTYPE_F32}};
  tad_tensor results[] = {{y, y_shape, 2, TAD_DTYPE_F32}};
  if (predict(args, 2, results, 1) != TAD_OK) {
    fprintf(stderr, "predict failed: %s\n", tad_last_error());
    return 1;
  }
  print_matrix("y", &y[0][0], 2, 2);

  /* The same function on three rows. */
  float x3[3][3] = {{0.1f, 0.2f, 0.3f}, {0.4f, 0.5f, 0.6f}, {0.7f, 0.8f, 0.9f}};
  float y3[3][2];
  const int64_t x3_shape[] = {3, 3}, y3_shape[] = {3, 2};
  tad_tensor args3[] = {{x3, x3_shape, 2, TAD_DTYPE_F32},
                        {w, w_shape, 2, TAD_DTYPE_F32}};
  tad_tensor results3[] = {{y3, y3_shape, 2, TAD_DTYPE_F32}};
  if (predict(args3, 2, results3, 1) != TAD_OK) {
    fprintf(stderr, "predict failed: %s\n", tad_last_error());
    return 1;
  }
  print_matrix("y (3 rows)", &y3[0][0], 3, 2);

  /* (y, dx, dw) = predict_vjp(x, w, dy): the gradients of sum(y). */
  float dy[2][2] = {{1.0f, 1.0f}, {1.0f, 1.0f}};
  float dx[2][3], dw[3][2];
  tad_tensor vjp_args[] = {{x, x_shape, 2, TAD_DTYPE_F32},
                           {w, w_shape, 2, TAD_DTYPE_F32},
                           {dy, y_shape, 2, TAD_DTYPE_F32}};
  tad_tensor vjp_results[] = {{y, y_shape, 2, TAD_DTYPE_F32},
                              {dx, x_shape, 2, TAD_DTYPE_F32},
                              {dw, w_shape, 2, TAD_DTYPE_F32}};
  if (predict_vjp(vjp_args, 3, vjp_results, 3) != TAD_OK) {
    fprintf(stderr, "predict_vjp failed: %s\n", tad_last_error());
    return 1;
  }
  print_matrix("dx", &dx[0][0], 2, 3);
  print_matrix("dw", &dw[0][0], 3, 2);

  /* A call that does not match the signature is rejected before anything
   * runs: the status says what kind of mismatch, tad_last_error() says
   * where, and the results are left untouched. */
  const int64_t wrong_shape[] = {2, 3};
  tad_tensor bad_args[] = {{x, x_shape, 2, TAD_DTYPE_F32},
                           {w, wrong_shape, 2, TAD_DTYPE_F32}};
  int32_t status = predict(bad_args, 2, results, 1);
  printf("predict with a [2, 3] weight: status %" PRId32 " (%s)\n", status,
         status == TAD_ERROR_SHAPE ? "TAD_ERROR_SHAPE" : "unexpected");
  printf("  tad_last_error(): %s\n", tad_last_error());
  return status == TAD_ERROR_SHAPE ? 0 : 1;
}
