/*===- tad/runtime_internal.h - between generated code and runtime -*- C -*-===*
 *
 * Symbols shared by the object that tadc emits and the runtime archive
 * (libtad_runtime.a) it is linked with. None of them is exported from the
 * `.so`: they all have hidden visibility, so every module keeps its own
 * copy and two modules in one process never bind to each other's.
 *
 * The generated object defines
 *
 *   const tad_module_table __tad_module;   (hidden)
 *
 * and one exported entry point per function, which starts with
 *
 *   int32_t status = __tad_check_call(&__tad_module.functions[i], args,
 *                                     num_args, results, num_results);
 *   if (status != TAD_OK) return status;
 *
 * The runtime defines __tad_check_call, the error helpers below, and the
 * exported functions of tad/runtime.h (tad_module_info, tad_last_error,
 * tad_dtype_name, tad_dtype_size). They all live in the archive members
 * that __tad_check_call pulls into the link, so no --whole-archive is needed.
 *
 * This header has no dependency on MLIR or LLVM.
 *===----------------------------------------------------------------------===*/
#ifndef TAD_RUNTIME_INTERNAL_H
#define TAD_RUNTIME_INTERNAL_H

#include "tad/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TAD_EXPORT __attribute__((visibility("default")))
#define TAD_HIDDEN __attribute__((visibility("hidden")))
#define TAD_PRINTF_FORMAT(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define TAD_EXPORT
#define TAD_HIDDEN
#define TAD_PRINTF_FORMAT(fmt, args)
#endif

/* Capacity of the per-thread error message, terminator included; longer
 * messages are truncated. */
#define TAD_ERROR_CAPACITY 1024

/* The module table, defined by the generated object. */
extern TAD_HIDDEN const tad_module_table __tad_module;

/* Checks a call of `fn` before it runs: the counts, then each argument and
 * each result in order (dtype, rank, shape pointer, every dimension, data
 * pointer). Returns TAD_OK and clears the calling thread's error, or the
 * tad_status of the first mismatch with its message stored for
 * tad_last_error(), e.g.
 *
 *   "f: expected 2 arguments, got 3"
 *   "f: argument 0 has dtype f64, expected f32"
 *   "mlp_loss: argument 1 has shape [3, 5], expected [4, 5]"
 *
 * `data` may be null only for a tensor with no elements. */
TAD_HIDDEN int32_t __tad_check_call(const tad_function_info *fn,
                                    const tad_tensor *args, int64_t num_args,
                                    tad_tensor *results, int64_t num_results);

/* Stores a printf-style message as the calling thread's last error. */
TAD_HIDDEN void __tad_set_error(const char *fmt, ...) TAD_PRINTF_FORMAT(1, 2);

/* Clears the calling thread's last error (tad_last_error() returns ""). */
TAD_HIDDEN void __tad_clear_error(void);

/* The implementation of an entry point, with its argument pointers, then
 * its result pointers, packed in an array. */
typedef void (*tad_packed_impl)(void *const *pointers);

/* Runs `impl(pointers)`, the implementation of `fn`, after the boundary
 * check: a CPU entry point ends with
 *
 *   void *pointers[] = {args[0].data, ..., results[0].data, ...};
 *   return __tad_run(&__tad_module.functions[i], _tad_packed_fn, pointers);
 *
 * Returns TAD_OK; TAD_ERROR_INDEX when a check of the generated code found
 * an index out of range (no result is written completely); or
 * TAD_ERROR_MEMORY when a temporary of the call could
 * not be allocated; then the call's temporaries are freed, no result is
 * written completely, and tad_last_error() says
 *
 *   "f: out of memory: cannot allocate 68719476736 bytes (64.0 GiB) for a
 *    temporary" */
TAD_HIDDEN int32_t __tad_run(const tad_function_info *fn, tad_packed_impl impl,
                             void *const *pointers);

/* __tad_check_call for GPU modules: also accepts tensors flagged
 * TAD_MEMORY_DEVICE (which __tad_check_call rejects with TAD_ERROR_MEMORY). */
TAD_HIDDEN int32_t __tad_check_device_call(const tad_function_info *fn,
                                           const tad_tensor *args,
                                           int64_t num_args,
                                           tad_tensor *results,
                                           int64_t num_results);

/* GPU modules (src/cuda/): the entry point of `fn`, after the boundary check,
 * calls
 *
 *   void *device[num_args + num_results];
 *   status = __tad_cuda_enter(fn, args, results, device);
 *   if (status != TAD_OK) return status;
 *   status = __tad_run(fn, _tad_packed_fn, device);
 *   exited = __tad_cuda_exit(fn, args, results, device);
 *   return status != TAD_OK ? status : exited;
 *
 * enter() gives the implementation a device pointer per tensor: a device
 * tensor's own `data`, or a fresh device buffer (a host argument copied
 * into it); it also opens the call's stream, which the implementation's
 * mgpuStreamCreate returns. exit() copies the host results back, frees the
 * staging buffers and the stream, and returns TAD_OK, or TAD_ERROR_RUNTIME
 * with the message "fn: CUDA: ..." if a device operation of the call
 * failed. The __tad_emulated_* pair (--gpu-emulate) does the same with host
 * memory. */
TAD_HIDDEN int32_t __tad_cuda_enter(const tad_function_info *fn,
                                    const tad_tensor *args,
                                    tad_tensor *results, void **device);
TAD_HIDDEN int32_t __tad_cuda_exit(const tad_function_info *fn,
                                   const tad_tensor *args,
                                   tad_tensor *results, void **device);
TAD_HIDDEN int32_t __tad_emulated_enter(const tad_function_info *fn,
                                        const tad_tensor *args,
                                        tad_tensor *results, void **device);
TAD_HIDDEN int32_t __tad_emulated_exit(const tad_function_info *fn,
                                       const tad_tensor *args,
                                       tad_tensor *results, void **device);

/* Bytes of the data of a tensor that passed the boundary check. */
TAD_HIDDEN int64_t __tad_tensor_bytes(const tad_tensor *t);

/* Name and element size of a dtype, for runtime code: the same answers as
 * tad_dtype_name/tad_dtype_size, but bound inside this module. Unknown
 * dtypes give null and 0. */
TAD_HIDDEN const char *__tad_dtype_name(int32_t dtype);
TAD_HIDDEN int64_t __tad_dtype_size(int32_t dtype);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TAD_RUNTIME_INTERNAL_H */
