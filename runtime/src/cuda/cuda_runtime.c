/*===- cuda_runtime.c - the mgpu* functions over the CUDA driver API ------===*
 *
 * The host code that `tadc --target=cuda` generates (MLIR's gpu-to-llvm and
 * the gpu.binary translation) calls the functions of MLIR's
 * CudaRuntimeWrappers.cpp: mgpuModuleLoadJIT, mgpuModuleGetFunction,
 * mgpuLaunchKernel, mgpuStreamCreate, mgpuMemAlloc, mgpuMemcpy, ... This
 * file implements them, with the same signatures, over the CUDA *driver*
 * API, which it loads with dlopen("libcuda.so.1") at first use: a module
 * builds, links and loads on a machine without CUDA, and a call on such a
 * machine fails cleanly with TAD_ERROR_RUNTIME and a message.
 *
 * Calls: the entry point of a function brackets its implementation with
 * __tad_cuda_enter and __tad_cuda_exit (runtime_internal.h): enter opens
 * the call's stream (the implementation's mgpuStreamCreate returns it, so
 * the staging copies and the kernels are ordered on one stream) and stages
 * the host tensors into device buffers (staging.h); tensors flagged
 * TAD_MEMORY_DEVICE are checked and used in place. exit copies the host
 * results back, frees the staging buffers, synchronizes and reports.
 *
 * Errors: the first failure of a call is recorded for the calling thread
 * (message through __tad_set_error, like the boundary checks); every later
 * mgpu* call of the same call does nothing, and __tad_cuda_exit reports it
 * prefixed with the function's name. Nothing here aborts or prints (except
 * the copies that TAD_DEVICE_TRACE asks for).
 *
 * Device memory API (tad_device_*, runtime.h): cuMemAlloc/cuMemFree and
 * copies on a private stream, complete when they return.
 *
 * Handles: modules are loaded lazily (the generated global constructor only
 * records where the PTX is, so dlopen of a module never touches CUDA);
 * function and stream handles are small structs that remember the kernel's
 * name for error messages.
 *
 * The few driver types and functions used are declared here: the build
 * needs no CUDA headers. TAD_CUDA_DRIVER overrides the library's name (tests
 * use a path that does not exist), TAD_CUDA_DEVICE the device ordinal.
 *===----------------------------------------------------------------------===*/
#include "tad/runtime_internal.h"

#include "staging.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* From cuda.h (ABI-stable since CUDA 4). */
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_NO_DEVICE = 100,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
  CU_MEM_ATTACH_GLOBAL = 1,
  CU_STREAM_NON_BLOCKING = 1,
  CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
  CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11,
  CU_POINTER_ATTRIBUTE_RANGE_SIZE = 12,
  CU_MEMORYTYPE_DEVICE = 2,
  CU_MEMORYTYPE_UNIFIED = 4,
};

/* The driver's entry points, by their versioned symbol names. */
#define TAD_CUDA_FUNCTIONS(X)                                                  \
  X(cuInit, "cuInit", CUresult, (unsigned))                                    \
  X(cuGetErrorName, "cuGetErrorName", CUresult, (CUresult, const char **))     \
  X(cuGetErrorString, "cuGetErrorString", CUresult, (CUresult, const char **)) \
  X(cuDeviceGetCount, "cuDeviceGetCount", CUresult, (int *))                   \
  X(cuDeviceGet, "cuDeviceGet", CUresult, (CUdevice *, int))                   \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", CUresult,            \
    (CUcontext *, CUdevice))                                                   \
  X(cuCtxSetCurrent, "cuCtxSetCurrent", CUresult, (CUcontext))                 \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx", CUresult,                        \
    (CUmodule *, const void *, unsigned, int *, void **))                      \
  X(cuModuleUnload, "cuModuleUnload", CUresult, (CUmodule))                    \
  X(cuModuleGetFunction, "cuModuleGetFunction", CUresult,                      \
    (CUfunction *, CUmodule, const char *))                                    \
  X(cuLaunchKernel, "cuLaunchKernel", CUresult,                                \
    (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,   \
     unsigned, CUstream, void **, void **))                                    \
  X(cuStreamCreate, "cuStreamCreate", CUresult, (CUstream *, unsigned))        \
  X(cuStreamDestroy, "cuStreamDestroy_v2", CUresult, (CUstream))               \
  X(cuStreamSynchronize, "cuStreamSynchronize", CUresult, (CUstream))          \
  X(cuStreamWaitEvent, "cuStreamWaitEvent", CUresult,                          \
    (CUstream, CUevent, unsigned))                                             \
  X(cuEventCreate, "cuEventCreate", CUresult, (CUevent *, unsigned))           \
  X(cuEventDestroy, "cuEventDestroy_v2", CUresult, (CUevent))                  \
  X(cuEventRecord, "cuEventRecord", CUresult, (CUevent, CUstream))             \
  X(cuEventSynchronize, "cuEventSynchronize", CUresult, (CUevent))             \
  X(cuMemAlloc, "cuMemAlloc_v2", CUresult, (CUdeviceptr *, size_t))            \
  X(cuMemAllocManaged, "cuMemAllocManaged", CUresult,                          \
    (CUdeviceptr *, size_t, unsigned))                                         \
  X(cuMemFree, "cuMemFree_v2", CUresult, (CUdeviceptr))                        \
  X(cuMemcpyAsync, "cuMemcpyAsync", CUresult,                                  \
    (CUdeviceptr, CUdeviceptr, size_t, CUstream))                              \
  X(cuMemsetD32Async, "cuMemsetD32Async", CUresult,                            \
    (CUdeviceptr, unsigned, size_t, CUstream))                                 \
  X(cuMemsetD16Async, "cuMemsetD16Async", CUresult,                            \
    (CUdeviceptr, unsigned short, size_t, CUstream))                           \
  X(cuPointerGetAttribute, "cuPointerGetAttribute", CUresult,                  \
    (void *, int, CUdeviceptr))

static struct {
#define TAD_CUDA_MEMBER(name, symbol, ret, params) ret(*name) params;
  TAD_CUDA_FUNCTIONS(TAD_CUDA_MEMBER)
#undef TAD_CUDA_MEMBER
} cu;

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
/* Why the driver is unusable ("" once initialized). */
static char init_error[512];
static CUcontext context;
static int device_ordinal = -1; /* mgpuSetDefaultDevice, else TAD_CUDA_DEVICE */

/* The calling thread's first failure during the current call. */
static _Thread_local int call_failed;
/* The stream of the calling thread's current call (__tad_cuda_enter). */
static _Thread_local struct tad_cuda_stream *call_stream;

/* Records the first failure of the current call. */
static void fail(const char *fmt, ...) TAD_PRINTF_FORMAT(1, 2);
static void fail(const char *fmt, ...) {
  if (call_failed)
    return;
  call_failed = 1;
  char message[TAD_ERROR_CAPACITY];
  va_list ap;
  va_start(ap, fmt);
  if (vsnprintf(message, sizeof message, fmt, ap) < 0)
    message[0] = '\0';
  va_end(ap);
  __tad_set_error("%s", message);
}

/* "CUDA_ERROR_X (text)" for a driver result. */
static void describe(CUresult result, char *out, size_t size) {
  const char *name = NULL, *text = NULL;
  if (cu.cuGetErrorName)
    cu.cuGetErrorName(result, &name);
  if (cu.cuGetErrorString)
    cu.cuGetErrorString(result, &text);
  if (name && text)
    snprintf(out, size, "%s (%s)", name, text);
  else
    snprintf(out, size, "CUDA error %d", result);
}

/* Reports a failed driver call `what`; returns whether it succeeded. */
static int check(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return 1;
  char text[256];
  describe(result, text, sizeof text);
  fail("CUDA: %s failed: %s", what, text);
  return 0;
}

static void initialize(void) {
  const char *library = getenv("TAD_CUDA_DRIVER");
  if (!library || !*library)
    library = "libcuda.so.1";
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    snprintf(init_error, sizeof init_error,
             "CUDA: no driver: cannot load %s (%s); this module was compiled "
             "with --target=cuda and needs an NVIDIA GPU and its driver",
             library, why ? why : "unknown error");
    return;
  }
#define TAD_CUDA_LOOKUP(name, symbol, ret, params)                             \
  *(void **)&cu.name = dlsym(handle, symbol);                                  \
  if (!cu.name) {                                                              \
    snprintf(init_error, sizeof init_error,                                    \
             "CUDA: the driver %s lacks %s (too old?)", library, symbol);      \
    return;                                                                    \
  }
  TAD_CUDA_FUNCTIONS(TAD_CUDA_LOOKUP)
#undef TAD_CUDA_LOOKUP

  char text[256];
  CUresult result = cu.cuInit(0);
  if (result == CUDA_ERROR_NO_DEVICE) {
    snprintf(init_error, sizeof init_error, "CUDA: no CUDA device found");
    return;
  }
  if (result != CUDA_SUCCESS) {
    describe(result, text, sizeof text);
    snprintf(init_error, sizeof init_error,
             "CUDA: driver initialization failed: %s", text);
    return;
  }
  int count = 0;
  result = cu.cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS || count == 0) {
    snprintf(init_error, sizeof init_error, "CUDA: no CUDA device found");
    return;
  }
  int ordinal = device_ordinal;
  if (ordinal < 0) {
    const char *env = getenv("TAD_CUDA_DEVICE");
    ordinal = env && *env ? atoi(env) : 0;
  }
  if (ordinal < 0 || ordinal >= count) {
    snprintf(init_error, sizeof init_error,
             "CUDA: device %d does not exist (%d device%s)", ordinal, count,
             count == 1 ? "" : "s");
    return;
  }
  CUdevice device;
  result = cu.cuDeviceGet(&device, ordinal);
  if (result == CUDA_SUCCESS)
    result = cu.cuDevicePrimaryCtxRetain(&context, device);
  if (result != CUDA_SUCCESS) {
    describe(result, text, sizeof text);
    snprintf(init_error, sizeof init_error,
             "CUDA: cannot create a context on device %d: %s", ordinal, text);
    return;
  }
  init_error[0] = '\0';
}

/* Initializes the driver once and makes the context current on this
 * thread; returns 0 (with the failure recorded) if CUDA is unusable. */
static int ensure_driver(void) {
  if (call_failed)
    return 0;
  pthread_once(&init_once, initialize);
  if (init_error[0]) {
    fail("%s", init_error);
    return 0;
  }
  return check(cu.cuCtxSetCurrent(context), "cuCtxSetCurrent");
}

/*===----------------------------------------------------------------------===*
 * Handles
 *===----------------------------------------------------------------------===*/

typedef struct tad_cuda_function {
  CUfunction function;
  const char *name; /* the generated code's constant string */
  struct tad_cuda_function *next;
} tad_cuda_function;

typedef struct tad_cuda_module {
  const void *data;
  int jit_opt_level; /* -1: a cubin or fatbin, else PTX */
  pthread_mutex_t lock;
  CUmodule module; /* null until loaded */
  tad_cuda_function *functions;
} tad_cuda_module;

typedef struct tad_cuda_stream {
  CUstream stream;
  const char *last_kernel; /* for errors found when synchronizing */
} tad_cuda_stream;

static tad_cuda_module *new_module(const void *data, int jit_opt_level) {
  tad_cuda_module *m = calloc(1, sizeof *m);
  if (!m)
    return NULL;
  m->data = data;
  m->jit_opt_level = jit_opt_level;
  pthread_mutex_init(&m->lock, NULL);
  return m;
}

/* Loads the module on first use; called with m->lock held. */
static int load_module(tad_cuda_module *m) {
  if (m->module)
    return 1;
  if (!ensure_driver())
    return 0;
  char log[4096] = "";
  int options[3];
  void *values[3];
  unsigned count = 0;
  options[count] = CU_JIT_ERROR_LOG_BUFFER;
  values[count++] = log;
  options[count] = CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES;
  values[count++] = (void *)(uintptr_t)sizeof log;
  if (m->jit_opt_level >= 0) {
    options[count] = CU_JIT_OPTIMIZATION_LEVEL;
    values[count++] = (void *)(uintptr_t)m->jit_opt_level;
  }
  CUresult result =
      cu.cuModuleLoadDataEx(&m->module, m->data, count, options, values);
  if (result != CUDA_SUCCESS) {
    char text[256];
    describe(result, text, sizeof text);
    m->module = NULL;
    fail("CUDA: cannot load the kernels (%s): %s%s%s",
         m->jit_opt_level >= 0 ? "PTX JIT" : "binary", text,
         log[0] ? "; " : "", log);
    return 0;
  }
  return 1;
}

/*===----------------------------------------------------------------------===*
 * The functions that MLIR's gpu-to-llvm lowering calls
 * (mlir/lib/ExecutionEngine/CudaRuntimeWrappers.cpp has the reference
 * signatures). Hidden: each module has its own copy.
 *===----------------------------------------------------------------------===*/

TAD_HIDDEN void *mgpuModuleLoad(void *data, size_t size) {
  (void)size;
  return new_module(data, -1);
}

TAD_HIDDEN void *mgpuModuleLoadJIT(void *data, int opt_level) {
  return new_module(data, opt_level < 0 ? 0 : opt_level);
}

TAD_HIDDEN void mgpuModuleUnload(void *handle) {
  tad_cuda_module *m = handle;
  if (!m)
    return;
  /* At process exit the driver may already be shut down: unload errors do
   * not matter then. */
  if (m->module && cu.cuModuleUnload)
    cu.cuModuleUnload(m->module);
  for (tad_cuda_function *f = m->functions; f;) {
    tad_cuda_function *next = f->next;
    free(f);
    f = next;
  }
  pthread_mutex_destroy(&m->lock);
  free(m);
}

TAD_HIDDEN void *mgpuModuleGetFunction(void *handle, const char *name) {
  tad_cuda_module *m = handle;
  if (call_failed)
    return NULL;
  if (!m) {
    fail("CUDA: out of memory for the module of kernel %s", name);
    return NULL;
  }
  pthread_mutex_lock(&m->lock);
  tad_cuda_function *found = NULL;
  if (load_module(m)) {
    for (tad_cuda_function *f = m->functions; f && !found; f = f->next)
      if (f->name == name || strcmp(f->name, name) == 0)
        found = f;
    if (!found) {
      CUfunction function;
      char what[256];
      snprintf(what, sizeof what, "looking up kernel %s", name);
      if (check(cu.cuModuleGetFunction(&function, m->module, name), what)) {
        found = calloc(1, sizeof *found);
        if (found) {
          found->function = function;
          found->name = name;
          found->next = m->functions;
          m->functions = found;
        } else {
          fail("CUDA: out of memory looking up kernel %s", name);
        }
      }
    }
  }
  pthread_mutex_unlock(&m->lock);
  return found;
}

TAD_HIDDEN void mgpuLaunchKernel(void *function, intptr_t gridX,
                                 intptr_t gridY, intptr_t gridZ,
                                 intptr_t blockX, intptr_t blockY,
                                 intptr_t blockZ, int32_t smem, void *stream,
                                 void **params, void **extra,
                                 size_t paramsCount) {
  (void)paramsCount;
  tad_cuda_function *f = function;
  tad_cuda_stream *s = stream;
  if (call_failed || !f || !s)
    return;
  /* Loops over empty tensors launch nothing. */
  if (gridX <= 0 || gridY <= 0 || gridZ <= 0 || blockX <= 0 || blockY <= 0 ||
      blockZ <= 0)
    return;
  CUresult result = cu.cuLaunchKernel(
      f->function, (unsigned)gridX, (unsigned)gridY, (unsigned)gridZ,
      (unsigned)blockX, (unsigned)blockY, (unsigned)blockZ, (unsigned)smem,
      s->stream, params, extra);
  if (result != CUDA_SUCCESS) {
    char text[256];
    describe(result, text, sizeof text);
    fail("CUDA: launch of kernel %s (grid %ldx%ldx%ld, block %ldx%ldx%ld) "
         "failed: %s",
         f->name, (long)gridX, (long)gridY, (long)gridZ, (long)blockX,
         (long)blockY, (long)blockZ, text);
    return;
  }
  s->last_kernel = f->name;
}

TAD_HIDDEN void *mgpuStreamCreate(void) {
  /* Inside a call: its stream, which the staging copies are on too. */
  if (call_stream)
    return call_stream;
  if (!ensure_driver())
    return NULL;
  tad_cuda_stream *s = calloc(1, sizeof *s);
  if (!s) {
    fail("CUDA: out of memory creating a stream");
    return NULL;
  }
  if (!check(cu.cuStreamCreate(&s->stream, CU_STREAM_NON_BLOCKING),
             "cuStreamCreate")) {
    free(s);
    return NULL;
  }
  return s;
}

TAD_HIDDEN void mgpuStreamDestroy(void *stream) {
  tad_cuda_stream *s = stream;
  if (!s || s == call_stream)
    return; /* the call's stream ends in __tad_cuda_exit */
  cu.cuStreamDestroy(s->stream);
  free(s);
}

TAD_HIDDEN void mgpuStreamSynchronize(void *stream) {
  tad_cuda_stream *s = stream;
  if (!s)
    return;
  /* Also after a failure: nothing may still run when buffers are freed. */
  CUresult result = cu.cuStreamSynchronize(s->stream);
  if (result != CUDA_SUCCESS) {
    char text[256];
    describe(result, text, sizeof text);
    if (s->last_kernel)
      fail("CUDA: kernel %s (or a copy before it) failed: %s", s->last_kernel,
           text);
    else
      fail("CUDA: stream synchronization failed: %s", text);
  }
}

TAD_HIDDEN void mgpuStreamWaitEvent(void *stream, void *event) {
  tad_cuda_stream *s = stream;
  if (call_failed || !s || !event)
    return;
  check(cu.cuStreamWaitEvent(s->stream, (CUevent)event, 0),
        "cuStreamWaitEvent");
}

TAD_HIDDEN void *mgpuEventCreate(void) {
  if (!ensure_driver())
    return NULL;
  CUevent event = NULL;
  /* CU_EVENT_DISABLE_TIMING = 2 */
  if (!check(cu.cuEventCreate(&event, 2), "cuEventCreate"))
    return NULL;
  return event;
}

TAD_HIDDEN void mgpuEventDestroy(void *event) {
  if (event && cu.cuEventDestroy)
    cu.cuEventDestroy((CUevent)event);
}

TAD_HIDDEN void mgpuEventSynchronize(void *event) {
  if (call_failed || !event)
    return;
  check(cu.cuEventSynchronize((CUevent)event), "cuEventSynchronize");
}

TAD_HIDDEN void mgpuEventRecord(void *event, void *stream) {
  tad_cuda_stream *s = stream;
  if (call_failed || !event || !s)
    return;
  check(cu.cuEventRecord((CUevent)event, s->stream), "cuEventRecord");
}

TAD_HIDDEN void *mgpuMemAlloc(uint64_t size, void *stream, bool hostShared) {
  (void)stream;
  /* Empty tensors get no memory (and are never dereferenced). */
  if (size == 0 || !ensure_driver())
    return NULL;
  CUdeviceptr pointer = 0;
  CUresult result = hostShared ? cu.cuMemAllocManaged(&pointer, size,
                                                      CU_MEM_ATTACH_GLOBAL)
                               : cu.cuMemAlloc(&pointer, size);
  if (result != CUDA_SUCCESS) {
    char text[256];
    describe(result, text, sizeof text);
    fail("CUDA: cannot allocate %llu bytes of device memory: %s",
         (unsigned long long)size, text);
    return NULL;
  }
  return (void *)(uintptr_t)pointer;
}

TAD_HIDDEN void mgpuMemFree(void *pointer, void *stream) {
  tad_cuda_stream *s = stream;
  if (!pointer || !cu.cuMemFree)
    return;
  /* The stream's kernels may still use the buffer: wait for them (errors
   * surface at the function's final synchronization). */
  if (s)
    cu.cuStreamSynchronize(s->stream);
  cu.cuMemFree((CUdeviceptr)(uintptr_t)pointer);
}

TAD_HIDDEN void mgpuMemcpy(void *dst, void *src, size_t size, void *stream) {
  tad_cuda_stream *s = stream;
  if (call_failed || size == 0 || !s)
    return;
  check(cu.cuMemcpyAsync((CUdeviceptr)(uintptr_t)dst,
                         (CUdeviceptr)(uintptr_t)src, size, s->stream),
        "cuMemcpyAsync");
}

TAD_HIDDEN void mgpuMemset32(void *dst, unsigned value, size_t count,
                             void *stream) {
  tad_cuda_stream *s = stream;
  if (call_failed || count == 0 || !s)
    return;
  check(cu.cuMemsetD32Async((CUdeviceptr)(uintptr_t)dst, value, count,
                            s->stream),
        "cuMemsetD32Async");
}

TAD_HIDDEN void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             void *stream) {
  tad_cuda_stream *s = stream;
  if (call_failed || count == 0 || !s)
    return;
  check(cu.cuMemsetD16Async((CUdeviceptr)(uintptr_t)dst, value, count,
                            s->stream),
        "cuMemsetD16Async");
}

TAD_HIDDEN void mgpuSetDefaultDevice(int32_t device) {
  device_ordinal = device;
}

/*===----------------------------------------------------------------------===*
 * The entry points' side (passes/ABI/ExportABI.cpp, device=cuda)
 *===----------------------------------------------------------------------===*/

/* TAD_OK, or TAD_ERROR_RUNTIME with the call's first failure prefixed with
 * `who` (a function's name). Ends the call's error state. */
static int32_t finish(const char *who) {
  if (!call_failed)
    return TAD_OK;
  call_failed = 0;
  char message[TAD_ERROR_CAPACITY];
  snprintf(message, sizeof message, "%s", tad_last_error());
  __tad_set_error("%s: %s", who ? who : "?", message);
  return TAD_ERROR_RUNTIME;
}

/* Waits for the call's stream, reporting a failure of its work. */
static void sync_call_stream(void) {
  if (!call_stream)
    return;
  CUresult result = cu.cuStreamSynchronize(call_stream->stream);
  if (result != CUDA_SUCCESS) {
    char text[256];
    describe(result, text, sizeof text);
    if (call_stream->last_kernel)
      fail("CUDA: kernel %s (or a copy before it) failed: %s",
           call_stream->last_kernel, text);
    else
      fail("CUDA: copying to or from the device failed: %s", text);
  }
}

static int stage_alloc(void **device, int64_t bytes) {
  *device = mgpuMemAlloc((uint64_t)bytes, call_stream, false);
  return !call_failed;
}

static void stage_free(void *device) { mgpuMemFree(device, call_stream); }

static int stage_copy(void *dst, const void *src, int64_t bytes) {
  mgpuMemcpy(dst, (void *)src, (size_t)bytes, call_stream);
  return !call_failed;
}

/* Whether [device, device + bytes) lies in one CUDA device allocation: 1,
 * else 0 (not device memory) or -1 (the allocation ends before; *available
 * is what it has from `device` on). */
static int device_range(const void *device, int64_t bytes,
                        unsigned long long *available) {
  CUdeviceptr pointer = (CUdeviceptr)(uintptr_t)device;
  unsigned type = 0;
  CUresult result = cu.cuPointerGetAttribute(
      &type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, pointer);
  if (result != CUDA_SUCCESS ||
      (type != CU_MEMORYTYPE_DEVICE && type != CU_MEMORYTYPE_UNIFIED))
    return 0;
  CUdeviceptr start = 0;
  size_t size = 0;
  if (cu.cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                               pointer) == CUDA_SUCCESS &&
      cu.cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE,
                               pointer) == CUDA_SUCCESS &&
      pointer + (uint64_t)bytes > start + size) {
    *available = start + size - pointer;
    return -1;
  }
  return 1;
}

static int32_t check_device_memory(const char *fn, const char *what,
                                   int64_t index, const void *device,
                                   int64_t bytes) {
  unsigned long long available = 0;
  switch (device_range(device, bytes, &available)) {
  case 0:
    __tad_set_error("%s: %s %" PRId64 " is marked as device memory "
                    "(TAD_MEMORY_DEVICE), but %p is not CUDA device memory "
                    "(freed, or host memory)",
                    fn, what, index, device);
    return TAD_ERROR_MEMORY;
  case -1:
    __tad_set_error("%s: %s %" PRId64 " needs %" PRId64 " bytes of device "
                    "memory at %p, but its allocation has %llu from there",
                    fn, what, index, bytes, device, available);
    return TAD_ERROR_MEMORY;
  }
  return TAD_OK;
}

static const tad_device_ops cuda_ops = {stage_alloc, stage_free, stage_copy,
                                        stage_copy, check_device_memory};

/* Ends the call's stream (after its work) and reports the call. */
static int32_t end_call(const char *who) {
  if (call_stream) {
    tad_cuda_stream *s = call_stream;
    call_stream = NULL;
    mgpuStreamDestroy(s);
  }
  return finish(who);
}

TAD_HIDDEN int32_t __tad_cuda_enter(const tad_function_info *fn,
                                    const tad_tensor *args,
                                    tad_tensor *results, void **device) {
  call_failed = 0;
  call_stream = NULL;
  tad_cuda_stream *s = mgpuStreamCreate();
  if (!s)
    return finish(fn->name);
  call_stream = s;
  int32_t status = tad_staging_enter(&cuda_ops, fn, args, results, device);
  if (status == TAD_OK)
    return TAD_OK;
  sync_call_stream();
  if (status != TAD_ERROR_RUNTIME) {
    /* A rejected device tensor: its message stands. */
    call_failed = 0;
    end_call(fn->name);
    return status;
  }
  return end_call(fn->name);
}

TAD_HIDDEN int32_t __tad_cuda_exit(const tad_function_info *fn,
                                   const tad_tensor *args,
                                   tad_tensor *results, void **device) {
  /* The implementation ended with a synchronization; results go back only
   * if nothing failed (results are unspecified after TAD_ERROR_RUNTIME). */
  sync_call_stream();
  int copied = tad_staging_exit(&cuda_ops, fn, args, results, device,
                                !call_failed);
  (void)copied;
  sync_call_stream();
  return end_call(fn->name);
}

/*===----------------------------------------------------------------------===*
 * Device memory API (runtime.h)
 *===----------------------------------------------------------------------===*/

TAD_EXPORT const char *tad_device_name(void) { return "cuda"; }

TAD_EXPORT int32_t tad_device_alloc(int64_t bytes, void **device) {
  call_failed = 0;
  if (!device) {
    __tad_set_error("tad_device_alloc: null result pointer");
    return TAD_ERROR_NULL;
  }
  *device = NULL;
  if (bytes < 0) {
    __tad_set_error("tad_device_alloc: negative size %" PRId64, bytes);
    return TAD_ERROR_SHAPE;
  }
  if (bytes > 0)
    *device = mgpuMemAlloc((uint64_t)bytes, NULL, false);
  int32_t status = finish("tad_device_alloc");
  if (status == TAD_OK)
    __tad_clear_error();
  return status;
}

TAD_EXPORT int32_t tad_device_free(void *device) {
  call_failed = 0;
  if (device && ensure_driver())
    check(cu.cuMemFree((CUdeviceptr)(uintptr_t)device), "cuMemFree");
  int32_t status = finish("tad_device_free");
  if (status == TAD_OK)
    __tad_clear_error();
  return status;
}

/* A complete copy of `bytes` between host and device (either way). */
static int32_t copy_now(const char *who, int to_device, void *dst,
                        const void *src, int64_t bytes) {
  call_failed = 0;
  if (bytes < 0) {
    __tad_set_error("%s: negative size %" PRId64, who, bytes);
    return TAD_ERROR_SHAPE;
  }
  if (bytes == 0) {
    __tad_clear_error();
    return TAD_OK;
  }
  if (!dst || !src) {
    __tad_set_error("%s: null pointer", who);
    return TAD_ERROR_NULL;
  }
  if (!ensure_driver())
    return finish(who);
  const void *device = to_device ? dst : src;
  unsigned long long available = 0;
  switch (device_range(device, bytes, &available)) {
  case 0:
    __tad_set_error("%s: %p is not CUDA device memory (freed, or host memory)",
                    who, device);
    return TAD_ERROR_MEMORY;
  case -1:
    __tad_set_error("%s: %" PRId64 " bytes at %p, but its allocation has "
                    "%llu from there",
                    who, bytes, device, available);
    return TAD_ERROR_MEMORY;
  }
  int32_t status;
  tad_cuda_stream *s = mgpuStreamCreate();
  if (s) {
    mgpuMemcpy(dst, (void *)src, (size_t)bytes, s);
    mgpuStreamSynchronize(s);
    mgpuStreamDestroy(s);
  }
  status = finish(who);
  if (status == TAD_OK)
    __tad_clear_error();
  return status;
}

TAD_EXPORT int32_t tad_device_upload(void *device, const void *host,
                                     int64_t bytes) {
  return copy_now("tad_device_upload", 1, device, host, bytes);
}

TAD_EXPORT int32_t tad_device_download(void *host, const void *device,
                                       int64_t bytes) {
  return copy_now("tad_device_download", 0, host, device, bytes);
}
