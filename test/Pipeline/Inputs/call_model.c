/* Calls the functions of Inputs/model.mlir through the tad C ABI and checks
 * them against plain C references. Prints one "label: ok" or
 * "label: FAIL ..." line per check. */
#define _GNU_SOURCE
#include "model.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

static void check(const char *label, int ok) {
  printf("%s: %s\n", label, ok ? "ok" : "FAIL");
  failures += !ok;
}

static int close_to(double a, double b) {
  return fabs(a - b) <= 1e-5 * (1.0 + fabs(b));
}

static void print_module(void) {
  const tad_module_table *m = tad_module_info();
  printf("abi %d, %d functions\n", m->abi_version, m->num_functions);
  for (int32_t i = 0; i < m->num_functions; ++i) {
    const tad_function_info *fn = &m->functions[i];
    printf("%s(", fn->name);
    for (int32_t a = 0; a < fn->num_args; ++a) {
      const tad_tensor_type *t = &fn->args[a];
      printf("%s%s[", a ? ", " : "", tad_dtype_name(t->dtype));
      for (int32_t d = 0; d < t->rank; ++d)
        printf("%s%lld", d ? ", " : "", (long long)t->shape[d]);
      printf("]");
    }
    printf(") -> (");
    for (int32_t r = 0; r < fn->num_results; ++r) {
      const tad_tensor_type *t = &fn->results[r];
      printf("%s%s[", r ? ", " : "", tad_dtype_name(t->dtype));
      for (int32_t d = 0; d < t->rank; ++d)
        printf("%s%lld", d ? ", " : "", (long long)t->shape[d]);
      printf("]");
    }
    printf(")%s\n", fn->entry == (tad_entry_fn)model && strcmp(fn->name, "model")
                        ? " WRONG ENTRY" : "");
  }
}

static void test_model(void) {
  float x[4][8], w[8][3], y[4][3], h[4][8], s[4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j)
      x[i][j] = 0.1f * (float)(i - j);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 3; ++j)
      w[i][j] = 0.05f * (float)(i + 2 * j) - 0.3f;
  float x_copy[4][8];
  memcpy(x_copy, x, sizeof x);

  int64_t xs[] = {4, 8}, ws[] = {8, 3}, ys[] = {4, 3}, hs[] = {4, 8}, ss[] = {4};
  tad_tensor args[] = {{x, xs, 2, TAD_DTYPE_F32}, {w, ws, 2, TAD_DTYPE_F32}};
  tad_tensor results[] = {{y, ys, 2, TAD_DTYPE_F32},
                          {h, hs, 2, TAD_DTYPE_F32},
                          {s, ss, 1, TAD_DTYPE_F32}};
  int32_t status = model(args, 2, results, 3);
  check("model status", status == TAD_OK);

  int ok_h = 1, ok_y = 1, ok_s = 1;
  double ref_h[4][8];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) {
      ref_h[i][j] = exp(tanh((double)x[i][j]));
      ok_h &= close_to(h[i][j], ref_h[i][j]);
    }
  for (int i = 0; i < 4; ++i) {
    double row = 0;
    for (int j = 0; j < 3; ++j) {
      double acc = 0;
      for (int k = 0; k < 8; ++k)
        acc += ref_h[i][k] * w[k][j];
      ok_y &= close_to(y[i][j], acc);
      row += acc;
    }
    ok_s &= close_to(s[i], row);
  }
  check("model exp(tanh(x))", ok_h);
  check("model matmul", ok_y);
  check("model row sums", ok_s);
  check("model leaves x unchanged", memcmp(x, x_copy, sizeof x) == 0);

  /* The boundary check: a transposed weight. */
  int64_t wrong[] = {3, 8};
  args[1].shape = wrong;
  y[0][0] = -1.0f;
  status = model(args, 2, results, 3);
  printf("wrong shape: status %d\n", status);
  printf("wrong shape: %s\n", tad_last_error());
  check("wrong shape leaves results alone", y[0][0] == -1.0f);
  args[1].shape = ws;
  status = model(args, 1, results, 3);
  printf("wrong count: status %d\n", status);
  args[0].dtype = TAD_DTYPE_F64;
  status = model(args, 2, results, 3);
  printf("wrong dtype: status %d\n", status);
}

static void test_sumsq(void) {
  double x[5] = {1, -2, 3, 0.5, -0.25}, r = 0;
  int64_t xs[] = {5};
  tad_tensor args[] = {{x, xs, 1, TAD_DTYPE_F64}};
  tad_tensor results[] = {{&r, NULL, 0, TAD_DTYPE_F64}};
  int32_t status = sumsq(args, 1, results, 1);
  check("sumsq", status == TAD_OK && r == 14.3125);
}

static void test_pad_cols(void) {
  int32_t x[4][2] = {{1, -2}, {0, 4}, {-5, 6}, {7, 0}}, p[4][3], same[4][2];
  uint8_t pos[4][2];
  int64_t xs[] = {4, 2}, ps[] = {4, 3};
  tad_tensor args[] = {{x, xs, 2, TAD_DTYPE_I32}};
  tad_tensor results[] = {{p, ps, 2, TAD_DTYPE_I32},
                          {pos, xs, 2, TAD_DTYPE_BOOL},
                          {same, xs, 2, TAD_DTYPE_I32}};
  int32_t status = pad_cols(args, 1, results, 3);
  int ok_p = status == TAD_OK, ok_pos = ok_p;
  for (int i = 0; i < 4; ++i) {
    ok_p &= p[i][0] == 7 && p[i][1] == x[i][0] && p[i][2] == x[i][1];
    for (int j = 0; j < 2; ++j)
      ok_pos &= pos[i][j] == (x[i][j] > 0);
  }
  check("pad_cols insert_slice", ok_p);
  check("pad_cols bool", ok_pos);
  check("pad_cols identity", memcmp(same, x, sizeof x) == 0);
}

static void test_gram(void) {
  float x[4][8], g[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j)
      x[i][j] = 0.2f * (float)(i * j) - 1.0f;
  int64_t xs[] = {4, 8}, gs[] = {4, 4};
  tad_tensor args[] = {{x, xs, 2, TAD_DTYPE_F32}};
  tad_tensor results[] = {{g, gs, 2, TAD_DTYPE_F32}};
  /* Warm up (stdio and the runtime's error buffer allocate once), then
   * check that 100 calls leave the heap as they found it. */
  int ok = gram(args, 1, results, 1) == TAD_OK;
  size_t before = mallinfo2().uordblks;
  for (int call = 0; call < 100; ++call)
    ok &= gram(args, 1, results, 1) == TAD_OK;
  size_t after = mallinfo2().uordblks;
  check("gram frees its temporaries", before == after);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      double acc = 0;
      for (int k = 0; k < 8; ++k)
        acc += tanh((double)x[i][k]) * tanh((double)x[j][k]);
      ok &= close_to(g[i][j], acc);
    }
  check("gram", ok);
}

int main(void) {
  print_module();
  test_model();
  test_sumsq();
  test_pad_cols();
  test_gram();
  printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures != 0;
}
