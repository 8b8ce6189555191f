/* A fake CUDA driver for testing the tad CUDA runtime without a GPU
 * (TAD_CUDA_DRIVER=<this .so>): "device" memory is host memory that the fake
 * tracks, copies are memcpy, streams and events do nothing, and kernels
 * cannot run (cuLaunchKernel fails with CUDA_ERROR_NOT_SUPPORTED). Modules
 * without kernels (copies only) therefore run for real, which exercises the
 * runtime's staging of host tensors, device tensors used in place, the
 * device memory API and pointer checks (cuPointerGetAttribute).
 *
 * At exit it prints "fake-cuda: N allocations live" to stderr (leaks).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

enum {
  OK = 0,
  INVALID_VALUE = 1,
  OUT_OF_MEMORY = 2,
  NOT_SUPPORTED = 801,
};

#define MAX_ALLOCATIONS 4096
static struct {
  char *start;
  size_t size;
} live[MAX_ALLOCATIONS];
static int num_live, reported;

static void report(void) {
  fprintf(stderr, "fake-cuda: %d allocations live\n", num_live);
}

static int find(CUdeviceptr p) {
  for (int i = 0; i < num_live; ++i)
    if ((char *)(uintptr_t)p >= live[i].start &&
        (char *)(uintptr_t)p < live[i].start + live[i].size)
      return i;
  return -1;
}

CUresult cuInit(unsigned flags) {
  if (!reported) {
    reported = 1;
    atexit(report);
  }
  return OK;
}
CUresult cuGetErrorName(CUresult r, const char **s) {
  *s = r == NOT_SUPPORTED   ? "CUDA_ERROR_NOT_SUPPORTED"
       : r == INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE"
       : r == OUT_OF_MEMORY ? "CUDA_ERROR_OUT_OF_MEMORY"
                            : "CUDA_ERROR_UNKNOWN";
  return OK;
}
CUresult cuGetErrorString(CUresult r, const char **s) {
  *s = r == NOT_SUPPORTED ? "the fake driver runs no kernels" : "fake error";
  return OK;
}
CUresult cuDeviceGetCount(int *n) {
  *n = 1;
  return OK;
}
CUresult cuDeviceGet(int *d, int ordinal) {
  *d = ordinal;
  return OK;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int d) {
  *ctx = (void *)1;
  return OK;
}
CUresult cuCtxSetCurrent(void *ctx) { return OK; }
CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n,
                            int *options, void **values) {
  *m = (void *)1;
  return OK;
}
CUresult cuModuleUnload(void *m) { return OK; }
CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
  *f = (void *)name;
  return OK;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *stream, void **params, void **extra) {
  return NOT_SUPPORTED;
}
CUresult cuStreamCreate(void **s, unsigned flags) {
  *s = malloc(1);
  return OK;
}
CUresult cuStreamDestroy_v2(void *s) {
  free(s);
  return OK;
}
CUresult cuStreamSynchronize(void *s) { return OK; }
CUresult cuStreamWaitEvent(void *s, void *e, unsigned flags) { return OK; }
CUresult cuEventCreate(void **e, unsigned flags) {
  *e = (void *)1;
  return OK;
}
CUresult cuEventDestroy_v2(void *e) { return OK; }
CUresult cuEventRecord(void *e, void *s) { return OK; }
CUresult cuEventSynchronize(void *e) { return OK; }
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t size) {
  if (num_live == MAX_ALLOCATIONS || size > ((size_t)1 << 40))
    return OUT_OF_MEMORY;
  char *memory = malloc(size);
  if (!memory)
    return OUT_OF_MEMORY;
  live[num_live].start = memory;
  live[num_live].size = size;
  ++num_live;
  *p = (CUdeviceptr)(uintptr_t)memory;
  return OK;
}
CUresult cuMemAllocManaged(CUdeviceptr *p, size_t size, unsigned flags) {
  return cuMemAlloc_v2(p, size);
}
CUresult cuMemFree_v2(CUdeviceptr p) {
  int i = find(p);
  if (i < 0 || (char *)(uintptr_t)p != live[i].start)
    return INVALID_VALUE;
  free(live[i].start);
  live[i] = live[--num_live];
  return OK;
}
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t size,
                       void *stream) {
  memcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, size);
  return OK;
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned v, size_t n, void *s) {
  for (size_t i = 0; i < n; ++i)
    ((unsigned *)(uintptr_t)dst)[i] = v;
  return OK;
}
CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short v, size_t n,
                          void *s) {
  for (size_t i = 0; i < n; ++i)
    ((unsigned short *)(uintptr_t)dst)[i] = v;
  return OK;
}
CUresult cuPointerGetAttribute(void *data, int attribute, CUdeviceptr p) {
  int i = find(p);
  if (i < 0)
    return INVALID_VALUE;
  switch (attribute) {
  case 2: /* CU_POINTER_ATTRIBUTE_MEMORY_TYPE */
    *(unsigned *)data = 2; /* CU_MEMORYTYPE_DEVICE */
    return OK;
  case 11: /* CU_POINTER_ATTRIBUTE_RANGE_START_ADDR */
    *(CUdeviceptr *)data = (CUdeviceptr)(uintptr_t)live[i].start;
    return OK;
  case 12: /* CU_POINTER_ATTRIBUTE_RANGE_SIZE */
    *(size_t *)data = live[i].size;
    return OK;
  }
  return INVALID_VALUE;
}
