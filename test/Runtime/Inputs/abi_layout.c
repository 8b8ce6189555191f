/* Prints the sizes and field offsets of the ABI structs, one
 * "struct.field offset" or "struct size" per line, for comparison with the
 * ctypes mirror in runtime/python/tad/_abi.py. */
#include "tad/runtime.h"

#include <stddef.h>
#include <stdio.h>

#define SIZE(type) printf(#type " %zu\n", sizeof(type))
#define FIELD(type, field) printf(#type "." #field " %zu\n", offsetof(type, field))

int main(void) {
  SIZE(tad_tensor);
  FIELD(tad_tensor, data);
  FIELD(tad_tensor, shape);
  FIELD(tad_tensor, rank);
  FIELD(tad_tensor, dtype);
  SIZE(tad_tensor_type);
  FIELD(tad_tensor_type, dtype);
  FIELD(tad_tensor_type, rank);
  FIELD(tad_tensor_type, shape);
  SIZE(tad_function_info);
  FIELD(tad_function_info, name);
  FIELD(tad_function_info, entry);
  FIELD(tad_function_info, num_args);
  FIELD(tad_function_info, num_results);
  FIELD(tad_function_info, args);
  FIELD(tad_function_info, results);
  SIZE(tad_module_table);
  FIELD(tad_module_table, abi_version);
  FIELD(tad_module_table, num_functions);
  FIELD(tad_module_table, functions);
  FIELD(tad_module_table, tad_version);
  printf("TAD_ABI_VERSION %d\n", TAD_ABI_VERSION);
  printf("TAD_DTYPE_F32 %d\nTAD_DTYPE_F64 %d\nTAD_DTYPE_I64 %d\n"
         "TAD_DTYPE_I32 %d\nTAD_DTYPE_BOOL %d\nTAD_DTYPE_BF16 %d\n"
         "TAD_DTYPE_F16 %d\n",
         TAD_DTYPE_F32, TAD_DTYPE_F64, TAD_DTYPE_I64, TAD_DTYPE_I32,
         TAD_DTYPE_BOOL, TAD_DTYPE_BF16, TAD_DTYPE_F16);
  printf("TAD_OK %d\nTAD_ERROR_ARG_COUNT %d\nTAD_ERROR_NULL %d\n"
         "TAD_ERROR_DTYPE %d\nTAD_ERROR_RANK %d\nTAD_ERROR_SHAPE %d\n"
         "TAD_ERROR_RUNTIME %d\n",
         TAD_OK, TAD_ERROR_ARG_COUNT, TAD_ERROR_NULL, TAD_ERROR_DTYPE,
         TAD_ERROR_RANK, TAD_ERROR_SHAPE, TAD_ERROR_RUNTIME);
  printf("TAD_ERROR_MEMORY %d\nTAD_MEMORY_DEVICE %d\n", TAD_ERROR_MEMORY,
         TAD_MEMORY_DEVICE);
  return 0;
}
