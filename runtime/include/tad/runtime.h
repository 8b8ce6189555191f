/*===- tad/runtime.h - the C ABI of tad-generated shared objects -*- C -*-===*
 *
 * Every `.so` that tadc writes exports, for each compiled function `f`:
 *
 *   int32_t f(const tad_tensor *args, int64_t num_args,
 *             tad_tensor *results, int64_t num_results);
 *
 * Calls are destination-passing: the caller owns every buffer, inputs and
 * results alike, and passes contiguous row-major data. Before running, the
 * entry point checks the counts, ranks, shapes and dtypes of all tensors
 * against the signature it was compiled for; on a mismatch it returns a
 * non-zero tad_status and leaves a message for tad_last_error(). Results
 * are written only when the call returns TAD_OK.
 *
 * The module also exports tad_module_info(), a table of its functions and
 * their signatures, so loaders need no generated header, and
 * tad_last_error(), the message of the calling thread's last failure.
 *
 * Rules (docs/abi.md has the details):
 *  - Results must not overlap the inputs or each other; inputs may alias.
 *  - `data` may be null only for a tensor with no elements, `shape` only
 *    at rank 0.
 *  - Calls are re-entrant: threads may call concurrently on distinct
 *    result buffers. Errors are per thread, and a message stays valid
 *    until the same thread's next call into the module.
 *  - GPU modules (tadc --target=cuda) also take tensors that live in device
 *    memory (tad_device_alloc below), marked TAD_MEMORY_DEVICE in `dtype`:
 *    they are used in place, without a copy. Host tensors are copied to
 *    the device and back on each call.
 *
 * This header has no dependency on MLIR or LLVM.
 *===----------------------------------------------------------------------===*/
#ifndef TAD_RUNTIME_H
#define TAD_RUNTIME_H

#include "tad/version.h" /* TAD_ABI_VERSION, TAD_VERSION_STRING */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types. The values are part of the ABI. */
typedef enum tad_dtype {
  TAD_DTYPE_F32 = 0,
  TAD_DTYPE_F64 = 1,
  TAD_DTYPE_I64 = 2,
  TAD_DTYPE_I32 = 3,
  TAD_DTYPE_BOOL = 4, /* one byte per element, 0 or 1 */
  TAD_DTYPE_BF16 = 5, /* bfloat16: the high 16 bits of an IEEE f32 */
  TAD_DTYPE_F16 = 6,  /* IEEE binary16 */
} tad_dtype;

/* Return codes of every entry point. The values are part of the ABI. */
typedef enum tad_status {
  TAD_OK = 0,
  TAD_ERROR_ARG_COUNT = 1, /* wrong num_args or num_results */
  TAD_ERROR_NULL = 2,      /* a null tensor array, data or shape pointer */
  TAD_ERROR_DTYPE = 3,     /* element type differs from the signature */
  TAD_ERROR_RANK = 4,      /* rank differs from the signature */
  TAD_ERROR_SHAPE = 5,     /* a dimension differs from the signature */
  TAD_ERROR_RUNTIME = 6,   /* failure while running (e.g. device error) */
  TAD_ERROR_MEMORY = 7,    /* device memory passed where the module cannot
                              use it (a CPU module), or not device memory;
                              or a temporary could not be allocated */
  TAD_ERROR_INDEX = 8,     /* an index in an argument is out of range for
                              the dimension it indexes (CPU modules) */
} tad_status;

/* Memory flags, or'ed into tad_tensor.dtype above the tad_dtype code.
 * TAD_MEMORY_DEVICE: `data` is device memory from tad_device_alloc (of any
 * GPU module of the same device kind in this process); GPU modules use it
 * in place, CPU modules reject it with TAD_ERROR_MEMORY. Without the flag,
 * `data` is host memory. Signatures (tad_tensor_type) never carry flags. */
#define TAD_MEMORY_DEVICE 0x10000
/* The tad_dtype code of a tad_tensor.dtype (flags removed). */
#define TAD_DTYPE_CODE(dtype) ((dtype) < 0 ? (dtype) : ((dtype) & 0xffff))

/* A tensor at the boundary: contiguous, row-major, caller-owned. */
typedef struct tad_tensor {
  void *data;
  const int64_t *shape; /* `rank` entries; may be null when rank == 0 */
  int32_t rank;
  int32_t dtype; /* a tad_dtype */
} tad_tensor;

/* The static type of one argument or result. */
typedef struct tad_tensor_type {
  int32_t dtype; /* a tad_dtype */
  int32_t rank;
  const int64_t *shape;
} tad_tensor_type;

typedef int32_t (*tad_entry_fn)(const tad_tensor *args, int64_t num_args,
                                tad_tensor *results, int64_t num_results);

/* One exported function and its signature. */
typedef struct tad_function_info {
  const char *name;
  tad_entry_fn entry;
  int32_t num_args;
  int32_t num_results;
  const tad_tensor_type *args;
  const tad_tensor_type *results;
} tad_function_info;

/* The module's table of exported functions.
 *
 * The typedef is not called `tad_module_info`: C puts typedef names and
 * function names in one namespace, and that name belongs to the function
 * below. `struct tad_module_info` names the same type. */
typedef struct tad_module_info {
  int32_t abi_version; /* TAD_ABI_VERSION of the compiler that wrote it */
  int32_t num_functions;
  const tad_function_info *functions;
  /* TAD_VERSION_STRING of the tadc that wrote it, e.g. "0.1.0". A loader
   * reads this field only after checking abi_version: modules of other ABI
   * versions may not have it. */
  const char *tad_version;
} tad_module_table;

/* Exported by every tad-generated shared object. */
const tad_module_table *tad_module_info(void);
/* Message of the calling thread's last failed call; "" if none. */
const char *tad_last_error(void);

/* Name of a dtype ("f32", "f64", "i64", "i32", "bool"), "?" if unknown. */
const char *tad_dtype_name(int32_t dtype);
/* Bytes per element of a dtype, 0 if unknown. */
int64_t tad_dtype_size(int32_t dtype);

/* Host memory of the module's compiled code: the temporaries its calls
 * allocate (results are written to the caller's buffers and not counted).
 * Sizes are rounded up to 64 bytes; the counts are the module's own, over
 * all threads. The peak is the highest live count since the module was
 * loaded or since tad_reset_peak_memory(). Freed blocks the module keeps
 * for reuse (TAD_ALLOC_CACHE_MB) are not live and are counted apart. GPU
 * device memory is not included. */
typedef struct tad_memory_stats {
  int64_t live_bytes;
  int64_t peak_bytes;
  int64_t cached_bytes;
} tad_memory_stats;
void tad_get_memory_stats(tad_memory_stats *stats);
void tad_reset_peak_memory(void);

/* Device memory: exported by GPU modules only (tadc --target=cuda), absent
 * from CPU modules. Memory from one GPU module is valid in every GPU module
 * of the same device kind in the process (one CUDA context per process), so
 * tensors can stay on the device across calls and across modules. Each
 * returns a tad_status (TAD_OK, or TAD_ERROR_RUNTIME with a message
 * "tad_device_alloc: CUDA: ..." for tad_last_error()); copies are complete
 * when they return. Sizes are in bytes; 0 bytes is valid (null memory). */

/* "cuda", or "emulated" for a module compiled with --gpu-emulate (a testing
 * aid whose "device" memory is host memory and whose kernels run on the
 * CPU). Device memory of one kind must not be passed to the other. */
const char *tad_device_name(void);
int32_t tad_device_alloc(int64_t bytes, void **device);
/* Frees memory from tad_device_alloc (null: nothing to do). */
int32_t tad_device_free(void *device);
/* Host to device and device to host. */
int32_t tad_device_upload(void *device, const void *host, int64_t bytes);
int32_t tad_device_download(void *host, const void *device, int64_t bytes);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TAD_RUNTIME_H */
