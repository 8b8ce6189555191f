/* Calls the bf16 and f16 functions of Inputs/half_precision.mlir through
 * the tad C ABI (uint16_t bits, TAD_DTYPE_BF16 / TAD_DTYPE_F16), checks
 * the results bit for bit against C references that compute each op in
 * float and round once to bf16, and checks the message of a call that
 * passes a float array as TAD_DTYPE_F32 for a bf16 argument. */
#include "half_precision.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

static void check(const char *label, int ok) {
  printf("%s: %s\n", label, ok ? "ok" : "FAIL");
  failures += !ok;
}

static float bf16_to_float(uint16_t bits) {
  uint32_t wide = (uint32_t)bits << 16;
  float f;
  memcpy(&f, &wide, sizeof f);
  return f;
}

/* Round to nearest, ties to even (c10::BFloat16); finite inputs only. */
static uint16_t float_to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

static void test_muladd(void) {
  const float xs[6] = {1.5f, -2.25f, 3.0f, 0.1f, 7.0f, -1.0f};
  const float ys[6] = {1.1f, 2.0f, -0.3f, 3.3f, 1.01f, 0.5f};
  const float zs[6] = {0.01f, 1.0f, 100.0f, -0.3f, 0.5f, 0.0f};
  uint16_t x[6], y[6], z[6], r[6], want[6];
  for (int i = 0; i < 6; ++i) {
    x[i] = float_to_bf16(xs[i]);
    y[i] = float_to_bf16(ys[i]);
    z[i] = float_to_bf16(zs[i]);
    uint16_t prod = float_to_bf16(bf16_to_float(x[i]) * bf16_to_float(y[i]));
    want[i] = float_to_bf16(bf16_to_float(prod) + bf16_to_float(z[i]));
  }
  int64_t shape[] = {6};
  tad_tensor args[] = {{x, shape, 1, TAD_DTYPE_BF16},
                       {y, shape, 1, TAD_DTYPE_BF16},
                       {z, shape, 1, TAD_DTYPE_BF16}};
  tad_tensor results[] = {{r, shape, 1, TAD_DTYPE_BF16}};
  check("muladd status", muladd(args, 3, results, 1) == TAD_OK);
  check("muladd bits", memcmp(r, want, sizeof r) == 0);
  printf("muladd =");
  for (int i = 0; i < 6; ++i)
    printf(" 0x%04x", r[i]);
  printf("\n");

  /* A float array passed as f32 for a bf16 argument is refused. */
  float wrong[6] = {0};
  tad_tensor bad[] = {{wrong, shape, 1, TAD_DTYPE_F32}, args[1], args[2]};
  int32_t status = muladd(bad, 3, results, 1);
  printf("muladd with an f32 argument: status %d%s\n", status,
         status == TAD_ERROR_DTYPE ? " (TAD_ERROR_DTYPE)" : "");
  printf("  tad_last_error(): %s\n", tad_last_error());
  /* A bf16 result slot declared f32 likewise. */
  float wide[6];
  tad_tensor bad_result[] = {{wide, shape, 1, TAD_DTYPE_F32}};
  status = muladd(args, 3, bad_result, 1);
  printf("muladd with an f32 result: status %d\n", status);
  printf("  tad_last_error(): %s\n", tad_last_error());
  check("muladd after errors", muladd(args, 3, results, 1) == TAD_OK &&
                                   memcmp(r, want, sizeof r) == 0);
}

static void test_widen_narrow(void) {
  uint16_t x[4] = {0x3F80, 0x4020, 0xC040, 0x3F00}; /* 1, 2.5, -3, 0.5 */
  float y[4];
  int64_t four[] = {4}, eight[] = {8};
  tad_tensor args[] = {{x, four, 1, TAD_DTYPE_BF16}};
  tad_tensor results[] = {{y, four, 1, TAD_DTYPE_F32}};
  check("widen status", widen(args, 1, results, 1) == TAD_OK);
  printf("widen = %g %g %g %g\n", y[0], y[1], y[2], y[3]);

  /* Ties to even, one past a tie, -0, overflow to inf, inf. */
  const uint32_t in_bits[8] = {0x3F808000u, 0x3F818000u, 0x3F808001u, 0x80000000u,
                               0x7F7FFFFFu, 0xFF800000u, 0x40490FDBu, 0x00000001u};
  float in[8];
  memcpy(in, in_bits, sizeof in);
  uint16_t out[8];
  tad_tensor nargs[] = {{in, eight, 1, TAD_DTYPE_F32}};
  tad_tensor nresults[] = {{out, eight, 1, TAD_DTYPE_BF16}};
  check("narrow status", narrow(nargs, 1, nresults, 1) == TAD_OK);
  printf("narrow =");
  for (int i = 0; i < 8; ++i)
    printf(" 0x%04x", out[i]);
  printf("\n");
}

static void test_half(void) {
  /* f16 bits: a = 1, 2, -0.5, 0.25, 3; b = 2, 0.5, 1.5, -4, 0.125 */
  uint16_t a[5] = {0x3C00, 0x4000, 0xB800, 0x3400, 0x4200};
  uint16_t b[5] = {0x4000, 0x3800, 0x3E00, 0xC400, 0x3000};
  uint16_t e[5];
  float e32[5];
  int64_t shape[] = {5};
  tad_tensor args[] = {{a, shape, 1, TAD_DTYPE_F16}, {b, shape, 1, TAD_DTYPE_F16}};
  tad_tensor results[] = {{e, shape, 1, TAD_DTYPE_F16}, {e32, shape, 1, TAD_DTYPE_F32}};
  check("half status", half(args, 2, results, 2) == TAD_OK);
  printf("half =");
  for (int i = 0; i < 5; ++i)
    printf(" 0x%04x", e[i]);
  printf("\nhalf widened = %g %g %g %g %g\n", e32[0], e32[1], e32[2], e32[3], e32[4]);

  tad_tensor bad[] = {{a, shape, 1, TAD_DTYPE_BF16}, args[1]};
  int32_t status = half(bad, 2, results, 2);
  printf("half with a bf16 argument: status %d\n", status);
  printf("  tad_last_error(): %s\n", tad_last_error());
}

int main(void) {
  const tad_module_table *m = tad_module_info();
  for (int32_t i = 0; i < m->num_functions; ++i) {
    const tad_function_info *fn = &m->functions[i];
    printf("%s:", fn->name);
    for (int32_t a = 0; a < fn->num_args; ++a)
      printf(" %s", tad_dtype_name(fn->args[a].dtype));
    printf(" ->");
    for (int32_t r = 0; r < fn->num_results; ++r)
      printf(" %s", tad_dtype_name(fn->results[r].dtype));
    printf("\n");
  }
  printf("TAD_DTYPE_BF16 = %d, TAD_DTYPE_F16 = %d\n", TAD_DTYPE_BF16, TAD_DTYPE_F16);
  test_muladd();
  test_widen_narrow();
  test_half();
  printf("%s\n", failures ? "FAILED" : "ALL PASSED");
  return failures != 0;
}
