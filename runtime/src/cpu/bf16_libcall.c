/*===- bf16_libcall.c - __truncsfbf2 for libgccs that lack it -------------===*
 *
 * On x86-64 without AVX512-BF16, LLVM's code generator calls __truncsfbf2
 * (f32 -> bf16) where it promotes bf16 vector operations to f32 and
 * rounds back (a select of bf16 vectors, for instance), even after
 * tad-expand-arith turned every truncation of the program into integer
 * arithmetic. compiler-rt and libgcc from GCC 13 define it; Debian 12's
 * libgcc (GCC 12) does not, so modules failed to link. This definition is
 * hidden: each module gets its own copy from the static runtime.
 *===----------------------------------------------------------------------===*/
#include "tad/runtime_internal.h"

#include <stdint.h>
#include <string.h>

/* The result is a bf16 in the low 16 bits of xmm0, where the x86-64 ABI
 * returns a __bf16; a float whose bit pattern is those 16 bits puts them
 * there without needing a compiler with __bf16. */
TAD_HIDDEN float __truncsfbf2(float value);

float __truncsfbf2(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  uint32_t half;
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    half = (bits >> 16) | 0x40u; /* a NaN stays a (quiet) NaN */
  else /* to nearest, ties to even */
    half = (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;
  uint32_t low = half & 0xffffu;
  float result;
  memcpy(&result, &low, sizeof result);
  return result;
}
