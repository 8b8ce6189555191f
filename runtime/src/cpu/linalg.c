/*===- linalg.c - the library calls behind tad's linear-algebra ops -------===*
 *
 * tad-to-linalg lowers the factorizations of TadLinearAlgebraOps.td to calls
 *
 *   void _tad_linalg_<kernel>_<f32|f64>(int64_t rank0, void *desc0, ...)
 *
 * with every operand and result as an unranked memref (MLIR passes one as
 * its rank and a pointer to its ranked descriptor { allocated, aligned,
 * offset, sizes[rank], strides[rank] }). Matrices are the last two
 * dimensions; the leading ones are a batch, walked in row-major order. The
 * inputs may be strided (they are bufferized tensors); each matrix is
 * gathered into a contiguous double work array, factored there, and the
 * results scattered back. f32 inputs are computed in double.
 *
 * The algorithms are the textbook ones, unblocked (sizes are small in the
 * programs tad compiles):
 *
 *  - LU with partial pivoting (LAPACK getrf's choice of pivot: the first
 *    entry of largest magnitude in the column); pivots are 1-based row
 *    swaps, as LAPACK and ATen; a zero pivot column is skipped and its
 *    1-based index reported (the first one) as `info`;
 *  - the inverse from the LU factors; a singular matrix (info > 0) gets an
 *    all-NaN inverse;
 *  - Cholesky (lower, A = L L^T, reading the lower triangle of A); the
 *    first leading minor that is not positive definite stops the
 *    factorization and is reported (1-based) as `info`, the entries from
 *    its column on are 0, as are those above the diagonal.
 *===----------------------------------------------------------------------===*/
#include "tad/runtime_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct tad_memref_header {
  char *allocated;
  char *aligned;
  int64_t offset;
  /* int64_t sizes[rank], strides[rank] follow. */
} tad_memref_header;

/* One unranked memref operand, decoded. */
typedef struct view {
  int64_t rank;
  char *base; /* aligned + offset, in bytes */
  const int64_t *sizes;
  const int64_t *strides;
} view;

static view decode(int64_t rank, void *desc) {
  tad_memref_header *h = desc;
  view v;
  v.rank = rank;
  v.sizes = (const int64_t *)((char *)desc + sizeof(tad_memref_header));
  v.strides = v.sizes + rank;
  v.base = h->aligned; /* the offset is added to element indices */
  return v;
}

/* The element offset of batch `b` (row-major over the first `batch_rank`
 * dimensions) of `v`, plus its header offset. */
static int64_t batch_offset(const view *v, int64_t batch_rank, int64_t b,
                            int64_t header_offset) {
  int64_t off = header_offset;
  for (int64_t d = batch_rank - 1; d >= 0; --d) {
    int64_t size = v->sizes[d];
    if (size == 0)
      return off;
    off += (b % size) * v->strides[d];
    b /= size;
  }
  return off;
}

static int64_t header_offset(void *desc) {
  return ((tad_memref_header *)desc)->offset;
}

static double load(const view *v, int is_f64, int64_t index) {
  return is_f64 ? ((double *)v->base)[index] : ((float *)v->base)[index];
}

static void store(const view *v, int is_f64, int64_t index, double x) {
  if (is_f64)
    ((double *)v->base)[index] = x;
  else
    ((float *)v->base)[index] = (float)x;
}

static void store_i32(const view *v, int64_t index, int32_t x) {
  ((int32_t *)v->base)[index] = x;
}

/* Gathers matrix `b` (m x n) of `v` into `work`, row-major. */
static void gather(const view *v, void *desc, int is_f64, int64_t b, int64_t m,
                   int64_t n, double *work) {
  int64_t r = v->rank;
  int64_t off = batch_offset(v, r - 2, b, header_offset(desc));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      work[i * n + j] =
          load(v, is_f64, off + i * v->strides[r - 2] + j * v->strides[r - 1]);
}

static void scatter(const view *v, void *desc, int is_f64, int64_t b,
                    int64_t m, int64_t n, const double *work) {
  int64_t r = v->rank;
  int64_t off = batch_offset(v, r - 2, b, header_offset(desc));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      store(v, is_f64, off + i * v->strides[r - 2] + j * v->strides[r - 1],
            work[i * n + j]);
}

static int64_t batch_count(const view *v, int64_t batch_rank) {
  int64_t count = 1;
  for (int64_t d = 0; d < batch_rank; ++d)
    count *= v->sizes[d];
  return count;
}

/* In-place LU with partial pivoting of the n x n row-major `a`; `piv`
 * gets 0-based row swaps. Returns 0 or the 1-based index of the first
 * zero pivot. `*sign` is the permutation's sign. */
static int32_t lu_factor(double *a, int64_t n, int32_t *piv, double *sign) {
  int32_t info = 0;
  *sign = 1.0;
  for (int64_t k = 0; k < n; ++k) {
    int64_t p = k;
    double best = fabs(a[k * n + k]);
    for (int64_t i = k + 1; i < n; ++i) {
      double v = fabs(a[i * n + k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv[k] = (int32_t)p;
    if (p != k) {
      for (int64_t j = 0; j < n; ++j) {
        double t = a[k * n + j];
        a[k * n + j] = a[p * n + j];
        a[p * n + j] = t;
      }
      *sign = -*sign;
    }
    double pivot = a[k * n + k];
    if (pivot == 0.0 || isnan(pivot)) {
      if (info == 0)
        info = (int32_t)(k + 1);
      if (pivot == 0.0)
        continue;
    }
    for (int64_t i = k + 1; i < n; ++i) {
      double l = a[i * n + k] / pivot;
      a[i * n + k] = l;
      for (int64_t j = k + 1; j < n; ++j)
        a[i * n + j] -= l * a[k * n + j];
    }
  }
  return info;
}

/* A^-1 from the LU factors `lu` (and swaps `piv`) into `inv`. */
static void lu_inverse(const double *lu, const int32_t *piv, int64_t n,
                       double *inv) {
  /* Columns of P I, then forward and back substitution per column. */
  memset(inv, 0, (size_t)(n * n) * sizeof(double));
  for (int64_t i = 0; i < n; ++i)
    inv[i * n + i] = 1.0;
  for (int64_t k = 0; k < n; ++k) {
    int64_t p = piv[k];
    if (p != k)
      for (int64_t j = 0; j < n; ++j) {
        double t = inv[k * n + j];
        inv[k * n + j] = inv[p * n + j];
        inv[p * n + j] = t;
      }
  }
  for (int64_t c = 0; c < n; ++c) {
    for (int64_t i = 0; i < n; ++i) {
      double s = inv[i * n + c];
      for (int64_t k = 0; k < i; ++k)
        s -= lu[i * n + k] * inv[k * n + c];
      inv[i * n + c] = s;
    }
    for (int64_t i = n - 1; i >= 0; --i) {
      double s = inv[i * n + c];
      for (int64_t k = i + 1; k < n; ++k)
        s -= lu[i * n + k] * inv[k * n + c];
      inv[i * n + c] = s / lu[i * n + i];
    }
  }
}

/* A work array of `count` doubles; NULL on allocation failure (the
 * results of that call are then left unwritten and info is -1). */
static double *work_alloc(int64_t count) {
  return malloc((size_t)(count > 0 ? count : 1) * sizeof(double));
}

/* inverse, info = linalg_inv_ex(A) */
static void inv_kernel(int is_f64, int64_t ra, void *da, int64_t ri, void *di,
                       int64_t rinfo, void *dinfo) {
  view a = decode(ra, da), inv = decode(ri, di), info = decode(rinfo, dinfo);
  int64_t n = a.sizes[ra - 1];
  int64_t batches = batch_count(&a, ra - 2);
  double *lu = work_alloc(n * n), *out = work_alloc(n * n);
  int32_t *piv = malloc((size_t)(n > 0 ? n : 1) * sizeof(int32_t));
  for (int64_t b = 0; b < batches; ++b) {
    int32_t status = -1;
    if (lu && out && piv) {
      double sign;
      gather(&a, da, is_f64, b, n, n, lu);
      status = lu_factor(lu, n, piv, &sign);
      if (status == 0)
        lu_inverse(lu, piv, n, out);
      else
        for (int64_t i = 0; i < n * n; ++i)
          out[i] = NAN;
      scatter(&inv, di, is_f64, b, n, n, out);
    }
    store_i32(&info, batch_offset(&info, rinfo, b, header_offset(dinfo)),
              status);
  }
  free(lu);
  free(out);
  free(piv);
}

/* sign, logabsdet, LU, pivots = _linalg_slogdet(A) */
static void slogdet_kernel(int is_f64, int64_t ra, void *da, int64_t rs,
                           void *ds, int64_t rl, void *dl, int64_t rlu,
                           void *dlu, int64_t rp, void *dp) {
  view a = decode(ra, da), sgn = decode(rs, ds), logabs = decode(rl, dl);
  view luv = decode(rlu, dlu), pivv = decode(rp, dp);
  int64_t n = a.sizes[ra - 1];
  int64_t batches = batch_count(&a, ra - 2);
  double *lu = work_alloc(n * n);
  int32_t *piv = malloc((size_t)(n > 0 ? n : 1) * sizeof(int32_t));
  for (int64_t b = 0; b < batches; ++b) {
    double s = NAN, l = NAN;
    if (lu && piv) {
      gather(&a, da, is_f64, b, n, n, lu);
      lu_factor(lu, n, piv, &s);
      l = 0.0;
      for (int64_t k = 0; k < n; ++k) {
        double d = lu[k * n + k];
        if (isnan(d)) {
          s = NAN;
          l = NAN;
          break;
        }
        if (d == 0.0) {
          s = 0.0;
          l = -INFINITY;
          break;
        }
        if (d < 0)
          s = -s;
        l += log(fabs(d));
      }
      scatter(&luv, dlu, is_f64, b, n, n, lu);
      int64_t poff = batch_offset(&pivv, rp - 1, b, header_offset(dp));
      for (int64_t k = 0; k < n; ++k)
        store_i32(&pivv, poff + k * pivv.strides[rp - 1], piv[k] + 1);
    }
    store(&sgn, is_f64, batch_offset(&sgn, rs, b, header_offset(ds)), s);
    store(&logabs, is_f64, batch_offset(&logabs, rl, b, header_offset(dl)), l);
  }
  free(lu);
  free(piv);
}

/* L, info = linalg_cholesky_ex(A, upper) */
static void cholesky_kernel(int is_f64, int64_t upper, int64_t ra, void *da,
                            int64_t rl, void *dl, int64_t rinfo,
                            void *dinfo) {
  view a = decode(ra, da), lv = decode(rl, dl), info = decode(rinfo, dinfo);
  int64_t n = a.sizes[ra - 1];
  int64_t batches = batch_count(&a, ra - 2);
  double *w = work_alloc(n * n), *l = work_alloc(n * n);
  for (int64_t b = 0; b < batches; ++b) {
    int32_t status = -1;
    if (w && l) {
      status = 0;
      gather(&a, da, is_f64, b, n, n, w);
      memset(l, 0, (size_t)(n * n) * sizeof(double));
      for (int64_t j = 0; j < n && status == 0; ++j) {
        double d = w[j * n + j];
        for (int64_t k = 0; k < j; ++k)
          d -= l[j * n + k] * l[j * n + k];
        if (!(d > 0.0)) {
          status = (int32_t)(j + 1);
          break;
        }
        double ljj = sqrt(d);
        l[j * n + j] = ljj;
        for (int64_t i = j + 1; i < n; ++i) {
          double s = w[i * n + j];
          for (int64_t k = 0; k < j; ++k)
            s -= l[i * n + k] * l[j * n + k];
          l[i * n + j] = s / ljj;
        }
      }
      if (upper)
        for (int64_t i = 0; i < n; ++i)
          for (int64_t j = 0; j < i; ++j) {
            l[j * n + i] = l[i * n + j];
            l[i * n + j] = 0.0;
          }
      scatter(&lv, dl, is_f64, b, n, n, l);
    }
    store_i32(&info, batch_offset(&info, rinfo, b, header_offset(dinfo)),
              status);
  }
  free(w);
  free(l);
}

TAD_HIDDEN void _tad_linalg_inv_f32(int64_t, void *, int64_t, void *, int64_t,
                                    void *);
TAD_HIDDEN void _tad_linalg_inv_f64(int64_t, void *, int64_t, void *, int64_t,
                                    void *);
TAD_HIDDEN void _tad_linalg_slogdet_f32(int64_t, void *, int64_t, void *,
                                        int64_t, void *, int64_t, void *,
                                        int64_t, void *);
TAD_HIDDEN void _tad_linalg_slogdet_f64(int64_t, void *, int64_t, void *,
                                        int64_t, void *, int64_t, void *,
                                        int64_t, void *);
TAD_HIDDEN void _tad_linalg_cholesky_f32(int64_t, int64_t, void *, int64_t,
                                         void *, int64_t, void *);
TAD_HIDDEN void _tad_linalg_cholesky_f64(int64_t, int64_t, void *, int64_t,
                                         void *, int64_t, void *);

void _tad_linalg_inv_f32(int64_t ra, void *da, int64_t ri, void *di,
                         int64_t rinfo, void *dinfo) {
  inv_kernel(0, ra, da, ri, di, rinfo, dinfo);
}
void _tad_linalg_inv_f64(int64_t ra, void *da, int64_t ri, void *di,
                         int64_t rinfo, void *dinfo) {
  inv_kernel(1, ra, da, ri, di, rinfo, dinfo);
}
void _tad_linalg_slogdet_f32(int64_t ra, void *da, int64_t rs, void *ds,
                             int64_t rl, void *dl, int64_t rlu, void *dlu,
                             int64_t rp, void *dp) {
  slogdet_kernel(0, ra, da, rs, ds, rl, dl, rlu, dlu, rp, dp);
}
void _tad_linalg_slogdet_f64(int64_t ra, void *da, int64_t rs, void *ds,
                             int64_t rl, void *dl, int64_t rlu, void *dlu,
                             int64_t rp, void *dp) {
  slogdet_kernel(1, ra, da, rs, ds, rl, dl, rlu, dlu, rp, dp);
}
void _tad_linalg_cholesky_f32(int64_t upper, int64_t ra, void *da, int64_t rl,
                              void *dl, int64_t rinfo, void *dinfo) {
  cholesky_kernel(0, upper, ra, da, rl, dl, rinfo, dinfo);
}
void _tad_linalg_cholesky_f64(int64_t upper, int64_t ra, void *da, int64_t rl,
                              void *dl, int64_t rinfo, void *dinfo) {
  cholesky_kernel(1, upper, ra, da, rl, dl, rinfo, dinfo);
}
