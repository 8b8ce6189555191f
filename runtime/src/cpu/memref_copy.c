/*===- memref_copy.c - the library call behind strided memref.copy --------===*
 *
 * MLIR lowers a memref.copy between two contiguous memrefs to memcpy, and
 * any other memref.copy (e.g. into a subview, after bufferizing
 * tensor.insert_slice) to a call of
 *
 *   void memrefCopy(int64_t elemSize, UnrankedMemRefType<char> *src,
 *                   UnrankedMemRefType<char> *dst);
 *
 * which upstream lives in libmlir_c_runner_utils. Generated modules link
 * only this runtime and libm, so it is provided here, with hidden
 * visibility. The archive member is linked only into modules that call it.
 *===----------------------------------------------------------------------===*/
#include "tad/runtime_internal.h"

#include <stdint.h>
#include <string.h>

/* MLIR's unranked memref: a rank and a pointer to a ranked descriptor
 * { char *allocated; char *aligned; int64_t offset; int64_t sizes[rank];
 *   int64_t strides[rank]; }. */
typedef struct tad_unranked_memref {
  int64_t rank;
  void *descriptor;
} tad_unranked_memref;

typedef struct tad_memref_header {
  char *allocated;
  char *aligned;
  int64_t offset;
  /* int64_t sizes[rank], strides[rank] follow. */
} tad_memref_header;

static const int64_t *memref_sizes(const tad_unranked_memref *m) {
  return (const int64_t *)((const char *)m->descriptor +
                           sizeof(tad_memref_header));
}

TAD_HIDDEN void memrefCopy(int64_t elem_size, tad_unranked_memref *src,
                           tad_unranked_memref *dst);

/* Copies element by element in row-major order, walking an index vector
 * like an odometer; strides are in elements. The innermost dimension is
 * copied as one block when both sides are contiguous in it. */
void memrefCopy(int64_t elem_size, tad_unranked_memref *src,
                tad_unranked_memref *dst) {
  int64_t rank = src->rank;
  const tad_memref_header *s = src->descriptor;
  const tad_memref_header *d = dst->descriptor;
  const int64_t *sizes = memref_sizes(src);
  const int64_t *src_strides = sizes + rank;
  const int64_t *dst_strides = memref_sizes(dst) + rank;
  const char *from = s->aligned + s->offset * elem_size;
  char *to = d->aligned + d->offset * elem_size;

  if (rank == 0) {
    memcpy(to, from, (size_t)elem_size);
    return;
  }
  for (int64_t i = 0; i < rank; ++i)
    if (sizes[i] == 0)
      return;

  /* Inner block: the last dimension, in one memcpy if contiguous. */
  int64_t inner = sizes[rank - 1];
  int contiguous = src_strides[rank - 1] == 1 && dst_strides[rank - 1] == 1;
  int64_t index[rank > 1 ? rank - 1 : 1];
  memset(index, 0, sizeof index);
  for (;;) {
    if (contiguous) {
      memcpy(to, from, (size_t)(inner * elem_size));
    } else {
      for (int64_t k = 0; k < inner; ++k)
        memcpy(to + k * dst_strides[rank - 1] * elem_size,
                from + k * src_strides[rank - 1] * elem_size,
                (size_t)elem_size);
    }
    /* Advance the outer dimensions, last fastest. */
    int64_t dim = rank - 2;
    for (; dim >= 0; --dim) {
      from += src_strides[dim] * elem_size;
      to += dst_strides[dim] * elem_size;
      if (++index[dim] < sizes[dim])
        break;
      from -= sizes[dim] * src_strides[dim] * elem_size;
      to -= sizes[dim] * dst_strides[dim] * elem_size;
      index[dim] = 0;
    }
    if (dim < 0)
      return;
  }
}
