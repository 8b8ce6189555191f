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
 *
 * Generated code does not check what these functions return: an allocation
 * that fails (or whose size overflows) ends the call through
 * __tad_fail_allocation (call.c) instead of returning null. So that the
 * call's earlier temporaries are not leaked then, every block allocated on
 * the thread of a call is on that call's list of live blocks until it is
 * freed.
 *
 * The heap counts what it hands out (tad_get_memory_stats): the bytes live
 * now and their high-water mark, the way a user measures what a compiled
 * function needs (the peak of a checkpointed reverse sweep, docs/loops.md)
 * without the process's other memory.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200112L /* posix_memalign */

#include "call_frame.h"

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
  struct block_header *next; /* free-list link while cached, live-list link
                                while allocated */
  struct block_header *prev; /* live-list link while allocated */
  tad_call_frame *frame;     /* the call whose live list holds it, or null */
} block_header;

_Static_assert(sizeof(block_header) <= kAlign,
               "the header must fit in a block's padding");

typedef struct bucket {
  size_t size;               /* 0: empty slot */
  block_header *free_blocks;
} bucket;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static bucket buckets[kBuckets]; /* open addressing on size */
static size_t cached_bytes;
static size_t live_bytes, peak_live_bytes; /* usable bytes handed out */
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

/* Puts `h` on the live list of `frame` (null: none) and counts it as
 * handed out. Lock held. */
static void link_live(block_header *h, tad_call_frame *frame) {
  live_bytes += h->size;
  if (live_bytes > peak_live_bytes)
    peak_live_bytes = live_bytes;
  h->frame = frame;
  h->prev = NULL;
  h->next = NULL;
  if (!frame)
    return;
  h->next = frame->live;
  if (h->next)
    h->next->prev = h;
  frame->live = h;
}

/* Takes `h` off its frame's live list, if any. Lock held. */
static void unlink_live(block_header *h) {
  if (!h->frame)
    return;
  if (h->prev)
    h->prev->next = h->next;
  else
    h->frame->live = h->next;
  if (h->next)
    h->next->prev = h->prev;
  h->frame = NULL;
  h->next = h->prev = NULL;
}

static void *allocate(size_t size, size_t align) {
  size_t requested = size;
  if (align < kAlign)
    align = kAlign;
  /* Sizes so large that the rounding or the padding would overflow cannot
   * be allocated anyway. */
  if (size > SIZE_MAX / 2 || align > SIZE_MAX / 4)
    __tad_fail_allocation(requested);
  size = (size + kAlign - 1) / kAlign * kAlign;
  if (size == 0)
    size = kAlign;
  tad_call_frame *frame = __tad_current_call();
  block_header *h = NULL;
  pthread_mutex_lock(&cache_lock);
  if (align == kAlign) {
    bucket *b = find_bucket(size);
    if (b && b->size == size && b->free_blocks) {
      h = b->free_blocks;
      b->free_blocks = h->next;
      cached_bytes -= size;
      link_live(h, frame);
    }
  }
  pthread_mutex_unlock(&cache_lock);
  if (!h) {
    void *memory = NULL;
    if (posix_memalign(&memory, align, align + size) != 0)
      __tad_fail_allocation(requested);
    h = block_of((char *)memory + align);
    h->size = size;
    h->align = align;
    h->memory = memory;
    pthread_mutex_lock(&cache_lock);
    link_live(h, frame);
    pthread_mutex_unlock(&cache_lock);
  }
  return h + 1;
}

/* Returns `h` to the cache, or to the system past the cache's limit. Lock
 * held; returns the block to free() after unlocking, or null. */
static block_header *release_locked(block_header *h) {
  bucket *b = NULL;
  if (h->align == kAlign && cached_bytes + h->size <= limit_locked())
    b = find_bucket(h->size);
  if (!b)
    return h;
  b->size = h->size;
  h->next = b->free_blocks;
  b->free_blocks = h;
  cached_bytes += h->size;
  return NULL;
}

void __tad_release_call_temporaries(tad_call_frame *frame, int free_them) {
  pthread_mutex_lock(&cache_lock);
  block_header *h = frame->live;
  frame->live = NULL;
  block_header *to_free = NULL; /* chained through `prev` */
  while (h) {
    block_header *next = h->next;
    h->frame = NULL;
    h->next = h->prev = NULL;
    if (free_them) {
      live_bytes -= h->size;
      block_header *uncached = release_locked(h);
      if (uncached) {
        uncached->prev = to_free;
        to_free = uncached;
      }
    }
    h = next;
  }
  pthread_mutex_unlock(&cache_lock);
  while (to_free) {
    block_header *prev = to_free->prev;
    free(to_free->memory);
    to_free = prev;
  }
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
  unlink_live(h);
  live_bytes -= h->size;
  block_header *uncached = release_locked(h);
  pthread_mutex_unlock(&cache_lock);
  if (uncached)
    free(uncached->memory);
}

TAD_EXPORT void tad_get_memory_stats(tad_memory_stats *stats) {
  if (!stats)
    return;
  pthread_mutex_lock(&cache_lock);
  stats->live_bytes = (int64_t)live_bytes;
  stats->peak_bytes = (int64_t)peak_live_bytes;
  stats->cached_bytes = (int64_t)cached_bytes;
  pthread_mutex_unlock(&cache_lock);
}

TAD_EXPORT void tad_reset_peak_memory(void) {
  pthread_mutex_lock(&cache_lock);
  peak_live_bytes = live_bytes;
  pthread_mutex_unlock(&cache_lock);
}
