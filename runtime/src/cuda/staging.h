/*===- staging.h - host tensors in and out of device memory, per call -----===*
 *
 * The entry point of a GPU module hands its implementation one device
 * pointer per tensor (runtime_internal.h, __tad_cuda_enter). This header
 * implements that staging once, over a device's primitives, for the CUDA
 * runtime (cuda_runtime.c) and the emulated one (emulated.c):
 *
 *   - a tensor flagged TAD_MEMORY_DEVICE is checked (check_device) and used
 *     in place;
 *   - a host argument is copied into a fresh device buffer;
 *   - a host result gets a fresh device buffer, copied back by
 *     tad_staging_exit, then freed.
 *
 * With TAD_DEVICE_TRACE set in the environment, every copy (and every
 * device tensor used in place) is reported on stderr, one line each:
 *
 *   tad: f: argument 0: host, copied to the device (1024 bytes)
 *   tad: f: argument 1: device memory, used in place (4096 bytes)
 *   tad: f: result 0: host, copied from the device (4 bytes)
 *===----------------------------------------------------------------------===*/
#ifndef TAD_RUNTIME_CUDA_STAGING_H
#define TAD_RUNTIME_CUDA_STAGING_H

#include "tad/runtime_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* A device's primitives. Each returns 1 on success; on failure it records
 * the message itself (and the staging stops), except check_device, which
 * returns a tad_status and sets the message with the function's name. */
typedef struct tad_device_ops {
  int (*alloc)(void **device, int64_t bytes);
  void (*free)(void *device);
  int (*upload)(void *device, const void *host, int64_t bytes);
  int (*download)(void *host, const void *device, int64_t bytes);
  int32_t (*check_device)(const char *fn, const char *what, int64_t index,
                          const void *device, int64_t bytes);
} tad_device_ops;

static inline int tad_staging_is_device(const tad_tensor *t) {
  return t->dtype >= 0 && (t->dtype & TAD_MEMORY_DEVICE);
}

static inline int tad_staging_trace(void) {
  static int trace = -1;
  if (trace < 0) {
    const char *env = getenv("TAD_DEVICE_TRACE");
    trace = env && *env && *env != '0';
  }
  return trace;
}

static inline void tad_staging_report(const tad_function_info *fn,
                                      const char *what, int64_t index,
                                      const char *how, int64_t bytes) {
  if (tad_staging_trace())
    fprintf(stderr, "tad: %s: %s %" PRId64 ": %s (%" PRId64 " bytes)\n",
            fn->name, what, index, how, bytes);
}

/* Frees the buffers that staging allocated (the host tensors' ones). */
static inline void tad_staging_free(const tad_device_ops *ops,
                                    const tad_function_info *fn,
                                    const tad_tensor *args,
                                    const tad_tensor *results,
                                    void **device) {
  for (int32_t i = 0; i < fn->num_args + fn->num_results; ++i) {
    const tad_tensor *t =
        i < fn->num_args ? &args[i] : &results[i - fn->num_args];
    if (!tad_staging_is_device(t) && device[i])
      ops->free(device[i]);
    device[i] = NULL;
  }
}

/* Fills `device`; returns TAD_OK, the status of a rejected device tensor,
 * or TAD_ERROR_RUNTIME after a failed primitive (nothing left allocated
 * then). */
static inline int32_t tad_staging_enter(const tad_device_ops *ops,
                                        const tad_function_info *fn,
                                        const tad_tensor *args,
                                        const tad_tensor *results,
                                        void **device) {
  int32_t n = fn->num_args + fn->num_results;
  for (int32_t i = 0; i < n; ++i)
    device[i] = NULL;
  for (int32_t i = 0; i < n; ++i) {
    int is_arg = i < fn->num_args;
    int64_t index = is_arg ? i : i - fn->num_args;
    const tad_tensor *t = is_arg ? &args[index] : &results[index];
    const char *what = is_arg ? "argument" : "result";
    int64_t bytes = __tad_tensor_bytes(t);
    if (tad_staging_is_device(t)) {
      int32_t status = bytes ? ops->check_device(fn->name, what, index,
                                                 t->data, bytes)
                             : TAD_OK;
      if (status != TAD_OK) {
        tad_staging_free(ops, fn, args, results, device);
        return status;
      }
      tad_staging_report(fn, what, index, "device memory, used in place",
                         bytes);
      device[i] = t->data;
      continue;
    }
    if (bytes == 0)
      continue; /* never dereferenced */
    if (!ops->alloc(&device[i], bytes) ||
        (is_arg && !ops->upload(device[i], t->data, bytes))) {
      tad_staging_free(ops, fn, args, results, device);
      return TAD_ERROR_RUNTIME;
    }
    if (is_arg)
      tad_staging_report(fn, what, index, "host, copied to the device", bytes);
  }
  return TAD_OK;
}

/* Copies the host results back (if `copy_back`) and frees the staging
 * buffers; returns whether every copy succeeded. */
static inline int tad_staging_exit(const tad_device_ops *ops,
                                   const tad_function_info *fn,
                                   const tad_tensor *args,
                                   tad_tensor *results, void **device,
                                   int copy_back) {
  int ok = 1;
  for (int32_t i = 0; copy_back && ok && i < fn->num_results; ++i) {
    tad_tensor *t = &results[i];
    void *buffer = device[fn->num_args + i];
    if (tad_staging_is_device(t) || !buffer)
      continue;
    int64_t bytes = __tad_tensor_bytes(t);
    ok = ops->download(t->data, buffer, bytes);
    if (ok)
      tad_staging_report(fn, "result", i, "host, copied from the device",
                         bytes);
  }
  tad_staging_free(ops, fn, args, results, device);
  return ok;
}

#endif /* TAD_RUNTIME_CUDA_STAGING_H */
