/*===- dtype.c - names and sizes of the ABI's element types ---------------===*/
#include "tad/runtime_internal.h"

#include <stddef.h>

const char *__tad_dtype_name(int32_t dtype) {
  switch (dtype) {
  case TAD_DTYPE_F32:
    return "f32";
  case TAD_DTYPE_F64:
    return "f64";
  case TAD_DTYPE_I64:
    return "i64";
  case TAD_DTYPE_I32:
    return "i32";
  case TAD_DTYPE_BOOL:
    return "bool";
  case TAD_DTYPE_BF16:
    return "bf16";
  case TAD_DTYPE_F16:
    return "f16";
  }
  return NULL;
}

int64_t __tad_dtype_size(int32_t dtype) {
  switch (dtype) {
  case TAD_DTYPE_F32:
  case TAD_DTYPE_I32:
    return 4;
  case TAD_DTYPE_F64:
  case TAD_DTYPE_I64:
    return 8;
  case TAD_DTYPE_BOOL:
    return 1;
  case TAD_DTYPE_BF16:
  case TAD_DTYPE_F16:
    return 2;
  }
  return 0;
}

TAD_EXPORT const char *tad_dtype_name(int32_t dtype) {
  const char *name = __tad_dtype_name(dtype);
  return name ? name : "?";
}

TAD_EXPORT int64_t tad_dtype_size(int32_t dtype) {
  return __tad_dtype_size(dtype);
}
