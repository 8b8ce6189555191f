/*===- alloc_cache.c - the heap behind generated code's temporaries --------===*
 *
 * The CPU pipeline lowers memref.alloc/dealloc to MLIR's generic allocation
 * functions
 *
 *   void *_mlir_memref_to_llvm_alloc(size_t size);
 *   void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size);
 *   void  _mlir_memref_to_llvm_free(void *ptr);
 *
 * and this file defines them (hidden: every module has its own). A call of
 * a compiled function allocates the same temporaries, of the same sizes, as
 * the previous call: with plain malloc every large one is a fresh mmap,
 * page faults on first touch and an munmap on free, on every call. Here a
 * freed block is kept on a free list for its exact size and handed out again
 * by the next allocation of that size, so from the second call on no memory
 * is mapped, faulted in or zeroed. Blocks are 64-byte aligned.
 *
 * The cache holds at most what one call had live at its peak (blocks come
 * back only when they are freed) and at most TAD_ALLOC_CACHE_MB megabytes
 * (default 4096; 0 disables caching): a block freed beyond that goes back
 * to the system.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200112L /* posix_memalign */

#include "tad/runtime_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

/* A block is `align` bytes of padding whose last bytes hold the header,
 * then the data, so the pointer handed out has the block's alignment. Only
 * blocks of the default alignment are cached. */
enum { kAlign = 64, kBuckets = 1024 };

typedef struct block_header {
  size_t size;               /* usable bytes, a multiple of kAlign */
  size_t align;              /* alignment of the data (>= kAlign) */
  void *memory;              /* what posix_memalign returned */
  struct block_header *next; /* free-list link while cached */
} block_header;

typedef struct bucket {
  size_t size;               /* 0: empty slot */
  block_header *free_blocks;
} bucket;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static bucket buckets[kBuckets]; /* open addressing on size */
static size_t cached_bytes;
static size_t cache_limit = (size_t)-1; /* (size_t)-1: not read yet */

static size_t limit_locked(void) {
  if (cache_limit == (size_t)-1) {
    const char *env = getenv("TAD_ALLOC_CACHE_MB");
    cache_limit = (size_t)(env ? strtoull(env, NULL, 10) : 4096) << 20;
  }
  return cache_limit;
}

/* The bucket of `size`, or the empty slot where it goes; NULL when the table
 * is full (then blocks of new sizes are not cached). */
static bucket *find_bucket(size_t size) {
  size_t i = (size / kAlign * 0x9E3779B97F4A7C15ull) % kBuckets;
  for (size_t probe = 0; probe < kBuckets; ++probe) {
    bucket *b = &buckets[(i + probe) % kBuckets];
    if (b->size == size || b->size == 0)
      return b;
  }
  return NULL;
}

static block_header *block_of(void *data) {
  return (block_header *)data - 1;
}

static void *allocate(size_t size, size_t align) {
  size = (size + kAlign - 1) / kAlign * kAlign;
  if (size == 0)
    size = kAlign;
  if (align < kAlign)
    align = kAlign;
  block_header *h = NULL;
  if (align == kAlign) {
    pthread_mutex_lock(&cache_lock);
    bucket *b = find_bucket(size);
    if (b && b->size == size && b->free_blocks) {
      h = b->free_blocks;
      b->free_blocks = h->next;
      cached_bytes -= size;
    }
    pthread_mutex_unlock(&cache_lock);
  }
  if (!h) {
    void *memory = NULL;
    if (posix_memalign(&memory, align, align + size) != 0)
      return NULL;
    h = block_of((char *)memory + align);
    h->size = size;
    h->align = align;
    h->memory = memory;
  }
  return h + 1;
}

TAD_HIDDEN void *_mlir_memref_to_llvm_alloc(size_t size);
TAD_HIDDEN void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment,
                                                    size_t size);
TAD_HIDDEN void _mlir_memref_to_llvm_free(void *ptr);

void *_mlir_memref_to_llvm_alloc(size_t size) {
  return allocate(size, kAlign);
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  return allocate(size, alignment);
}

void _mlir_memref_to_llvm_free(void *ptr) {
  if (!ptr)
    return;
  block_header *h = block_of(ptr);
  pthread_mutex_lock(&cache_lock);
  bucket *b = NULL;
  if (h->align == kAlign && cached_bytes + h->size <= limit_locked())
    b = find_bucket(h->size);
  if (b) {
    b->size = h->size;
    h->next = b->free_blocks;
    b->free_blocks = h;
    cached_bytes += h->size;
  }
  pthread_mutex_unlock(&cache_lock);
  if (!b)
    free(h->memory);
}
