/* A hand-written stand-in for an object that tadc emits: the module table
 * __tad_module (hidden) and exported entry points that call
 * __tad_check_call first, exactly as generated code does. Built with
 * -fvisibility=hidden and linked with libtad_runtime.a.
 *
 *   add(f32[2, 3], f32[2, 3]) -> f32[2, 3]          elementwise sum
 *   stats(f64[4]) -> (f64[], f64[4])                 (sum, 2 * x)
 *   mix(i64[3], i32[3], bool[3]) -> i64[]            sum of a + b where c
 *   fail(f32[]) -> f32[]                             always TAD_ERROR_RUNTIME
 */
#include "tad/runtime_internal.h"

#include <stdbool.h>

/* Lets a test build a module of another (older or future) ABI. */
#ifndef FAKE_ABI_VERSION
#define FAKE_ABI_VERSION TAD_ABI_VERSION
#endif

/* Lets a test build a second, different module. */
#ifndef FAKE_ADD_NAME
#define FAKE_ADD_NAME "add"
#endif

#define ENTRY __attribute__((visibility("default"))) int32_t

static const int64_t shape_2x3[] = {2, 3};
static const int64_t shape_4[] = {4};
static const int64_t shape_3[] = {3};

static const tad_tensor_type add_args[] = {{TAD_DTYPE_F32, 2, shape_2x3},
                                           {TAD_DTYPE_F32, 2, shape_2x3}};
static const tad_tensor_type add_results[] = {{TAD_DTYPE_F32, 2, shape_2x3}};
static const tad_tensor_type stats_args[] = {{TAD_DTYPE_F64, 1, shape_4}};
static const tad_tensor_type stats_results[] = {{TAD_DTYPE_F64, 0, 0},
                                                {TAD_DTYPE_F64, 1, shape_4}};
static const tad_tensor_type mix_args[] = {{TAD_DTYPE_I64, 1, shape_3},
                                           {TAD_DTYPE_I32, 1, shape_3},
                                           {TAD_DTYPE_BOOL, 1, shape_3}};
static const tad_tensor_type mix_results[] = {{TAD_DTYPE_I64, 0, 0}};
static const tad_tensor_type fail_types[] = {{TAD_DTYPE_F32, 0, 0}};

ENTRY add(const tad_tensor *args, int64_t num_args, tad_tensor *results,
          int64_t num_results);
ENTRY stats(const tad_tensor *args, int64_t num_args, tad_tensor *results,
            int64_t num_results);
ENTRY mix(const tad_tensor *args, int64_t num_args, tad_tensor *results,
          int64_t num_results);
ENTRY fail(const tad_tensor *args, int64_t num_args, tad_tensor *results,
           int64_t num_results);

static const tad_function_info functions[] = {
    {FAKE_ADD_NAME, add, 2, 1, add_args, add_results},
    {"stats", stats, 1, 2, stats_args, stats_results},
    {"mix", mix, 3, 1, mix_args, mix_results},
    {"fail", fail, 1, 1, fail_types, fail_types},
};

const tad_module_table __tad_module = {FAKE_ABI_VERSION, 4, functions,
                                       "0.0-fake"};

ENTRY add(const tad_tensor *args, int64_t num_args, tad_tensor *results,
          int64_t num_results) {
  int32_t status = __tad_check_call(&__tad_module.functions[0], args, num_args,
                                    results, num_results);
  if (status != TAD_OK)
    return status;
  const float *a = args[0].data, *b = args[1].data;
  float *out = results[0].data;
  for (int i = 0; i < 6; ++i)
    out[i] = a[i] + b[i];
  return TAD_OK;
}

ENTRY stats(const tad_tensor *args, int64_t num_args, tad_tensor *results,
            int64_t num_results) {
  int32_t status = __tad_check_call(&__tad_module.functions[1], args, num_args,
                                    results, num_results);
  if (status != TAD_OK)
    return status;
  const double *x = args[0].data;
  double *sum = results[0].data, *doubled = results[1].data;
  *sum = 0;
  for (int i = 0; i < 4; ++i) {
    *sum += x[i];
    doubled[i] = 2 * x[i];
  }
  return TAD_OK;
}

ENTRY mix(const tad_tensor *args, int64_t num_args, tad_tensor *results,
          int64_t num_results) {
  int32_t status = __tad_check_call(&__tad_module.functions[2], args, num_args,
                                    results, num_results);
  if (status != TAD_OK)
    return status;
  const int64_t *a = args[0].data;
  const int32_t *b = args[1].data;
  const bool *c = args[2].data;
  int64_t *out = results[0].data;
  *out = 0;
  for (int i = 0; i < 3; ++i)
    if (c[i])
      *out += a[i] + b[i];
  return TAD_OK;
}

ENTRY fail(const tad_tensor *args, int64_t num_args, tad_tensor *results,
           int64_t num_results) {
  int32_t status = __tad_check_call(&__tad_module.functions[3], args, num_args,
                                    results, num_results);
  if (status != TAD_OK)
    return status;
  __tad_set_error("fail: simulated device failure (code %d)", 700);
  return TAD_ERROR_RUNTIME;
}
