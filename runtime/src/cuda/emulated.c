/*===- emulated.c - the device runtime of --gpu-emulate modules -----------===*
 *
 * `tadc --target=cuda --gpu-emulate` (a testing aid for machines without a
 * GPU) runs the GPU pipeline's kernels as loops on the CPU. Its entry
 * points bracket the implementation with __tad_emulated_enter/exit, the
 * same staging as a CUDA module (staging.h): host arguments are copied into
 * fresh "device" buffers and host results copied back, tensors flagged
 * TAD_MEMORY_DEVICE are used in place. "Device" memory is host memory from
 * malloc, so the device-array path (API, ABI flags, staging, Python) runs
 * and is tested anywhere; nothing here checks that a flagged pointer came
 * from tad_device_alloc (the CUDA runtime does).
 *
 * This file and cuda_runtime.c define the same exported tad_device_*
 * functions: a module pulls in exactly one of them from the archive, through
 * its entry points' __tad_emulated_enter or __tad_cuda_enter (the linker
 * forces the one of the module's kind; compiler/Linker.cpp).
 *===----------------------------------------------------------------------===*/
#include "tad/runtime_internal.h"

#include "staging.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The first failure of the current call on this thread (its message is
 * already stored). */
static _Thread_local int call_failed;

static int emulated_alloc(void **device, int64_t bytes) {
  *device = malloc((size_t)bytes);
  if (!*device) {
    __tad_set_error("emulated device: cannot allocate %" PRId64 " bytes",
                    bytes);
    call_failed = 1;
    return 0;
  }
  return 1;
}

static void emulated_free(void *device) { free(device); }

static int emulated_copy(void *dst, const void *src, int64_t bytes) {
  memcpy(dst, src, (size_t)bytes);
  return 1;
}

static int32_t emulated_check(const char *fn, const char *what, int64_t index,
                              const void *device, int64_t bytes) {
  (void)fn, (void)what, (void)index, (void)device, (void)bytes;
  return TAD_OK;
}

static const tad_device_ops emulated_ops = {emulated_alloc, emulated_free,
                                            emulated_copy, emulated_copy,
                                            emulated_check};

/* TAD_OK, or TAD_ERROR_RUNTIME with the failure prefixed by `who`. */
static int32_t finish(const char *who) {
  if (!call_failed)
    return TAD_OK;
  call_failed = 0;
  char message[TAD_ERROR_CAPACITY];
  snprintf(message, sizeof message, "%s", tad_last_error());
  __tad_set_error("%s: %s", who, message);
  return TAD_ERROR_RUNTIME;
}

TAD_HIDDEN int32_t __tad_emulated_enter(const tad_function_info *fn,
                                        const tad_tensor *args,
                                        tad_tensor *results, void **device) {
  call_failed = 0;
  int32_t status =
      tad_staging_enter(&emulated_ops, fn, args, results, device);
  if (status == TAD_ERROR_RUNTIME)
    return finish(fn->name);
  return status;
}

TAD_HIDDEN int32_t __tad_emulated_exit(const tad_function_info *fn,
                                       const tad_tensor *args,
                                       tad_tensor *results, void **device) {
  tad_staging_exit(&emulated_ops, fn, args, results, device, 1);
  return finish(fn->name);
}

TAD_EXPORT const char *tad_device_name(void) { return "emulated"; }

TAD_EXPORT int32_t tad_device_alloc(int64_t bytes, void **device) {
  if (!device) {
    __tad_set_error("tad_device_alloc: null result pointer");
    return TAD_ERROR_NULL;
  }
  *device = NULL;
  if (bytes < 0) {
    __tad_set_error("tad_device_alloc: negative size %" PRId64, bytes);
    return TAD_ERROR_SHAPE;
  }
  call_failed = 0;
  if (bytes > 0 && !emulated_alloc(device, bytes))
    return finish("tad_device_alloc");
  __tad_clear_error();
  return TAD_OK;
}

TAD_EXPORT int32_t tad_device_free(void *device) {
  free(device);
  __tad_clear_error();
  return TAD_OK;
}

static int32_t copy_now(const char *who, void *dst, const void *src,
                        int64_t bytes) {
  if (bytes < 0) {
    __tad_set_error("%s: negative size %" PRId64, who, bytes);
    return TAD_ERROR_SHAPE;
  }
  if (bytes > 0 && (!dst || !src)) {
    __tad_set_error("%s: null pointer", who);
    return TAD_ERROR_NULL;
  }
  if (bytes > 0)
    memcpy(dst, src, (size_t)bytes);
  __tad_clear_error();
  return TAD_OK;
}

TAD_EXPORT int32_t tad_device_upload(void *device, const void *host,
                                     int64_t bytes) {
  return copy_now("tad_device_upload", device, host, bytes);
}

TAD_EXPORT int32_t tad_device_download(void *host, const void *device,
                                       int64_t bytes) {
  return copy_now("tad_device_download", host, device, bytes);
}
