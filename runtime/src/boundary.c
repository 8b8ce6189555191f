/*===- boundary.c - the module's boundary: metadata and call checks -------===*
 *
 * __tad_check_call runs at the start of every entry point, so this file is
 * the archive member that every generated module pulls in; tad_module_info
 * lives here so that it comes along, and the references below pull in
 * error.c and dtype.c with the rest of the exported API.
 *===----------------------------------------------------------------------===*/
#include "tad/runtime_internal.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

TAD_EXPORT const tad_module_table *tad_module_info(void) {
  return &__tad_module;
}

/* Room for one shape in a message; longer shapes end in "...]". */
enum { SHAPE_TEXT_CAPACITY = 256 };

/* Writes `shape` as "[2, 3]" ("[]" for a scalar). In a signature, a
 * negative (dynamic) dimension prints as "?". */
static void format_shape(char *out, const int64_t *shape, int32_t rank,
                         int is_signature) {
  size_t len = 0;
  out[len++] = '[';
  for (int32_t d = 0; d < rank; ++d) {
    char dim[32];
    if (is_signature && shape[d] < 0)
      snprintf(dim, sizeof dim, "%s?", d ? ", " : "");
    else
      snprintf(dim, sizeof dim, "%s%" PRId64, d ? ", " : "", shape[d]);
    size_t n = strlen(dim);
    /* Keep room for "...]" and the terminator. */
    if (len + n + 5 > SHAPE_TEXT_CAPACITY) {
      memcpy(out + len, "...", 3);
      len += 3;
      break;
    }
    memcpy(out + len, dim, n);
    len += n;
  }
  out[len++] = ']';
  out[len] = '\0';
}

/* Whether a signature's dimension admits a given one; a negative signature
 * dimension, -1 - k, is the dynamic size of symbol k and admits any size
 * (which the symbol check below binds). */
static int dim_matches(int64_t expected, int64_t actual) {
  return actual >= 0 && (expected < 0 || expected == actual);
}

/* The sizes of a dynamic signature's symbols as the call binds them: the
 * first tensor dimension of a symbol sets its size, later ones must agree.
 * (The compiler allows at most TAD_MAX_SYMBOLS symbols.) */
enum { TAD_MAX_SYMBOLS = 64 };
typedef struct symbol_bindings {
  int64_t size[TAD_MAX_SYMBOLS];
  const char *what[TAD_MAX_SYMBOLS]; /* "argument" or "result" */
  int64_t index[TAD_MAX_SYMBOLS], dim[TAD_MAX_SYMBOLS];
  uint8_t bound[TAD_MAX_SYMBOLS];
} symbol_bindings;

/* Binds or checks the symbols among `type`'s dimensions. */
static int32_t check_symbols(const char *fn, const char *what, int64_t index,
                             const tad_tensor *t, const tad_tensor_type *type,
                             symbol_bindings *symbols) {
  for (int32_t d = 0; d < type->rank; ++d) {
    if (type->shape[d] >= 0)
      continue;
    int64_t k = -1 - type->shape[d];
    if (k >= TAD_MAX_SYMBOLS) {
      __tad_set_error("%s: the signature of %s %" PRId64
                      " has a dynamic size beyond the runtime's %d symbols",
                      fn, what, index, (int)TAD_MAX_SYMBOLS);
      return TAD_ERROR_SHAPE;
    }
    if (!symbols->bound[k]) {
      symbols->bound[k] = 1;
      symbols->size[k] = t->shape[d];
      symbols->what[k] = what;
      symbols->index[k] = index;
      symbols->dim[k] = d;
      continue;
    }
    if (symbols->size[k] != t->shape[d]) {
      __tad_set_error("%s: %s %" PRId64 " has size %" PRId64
                      " in dimension %" PRId32 ", but %s %" PRId64
                      " has size %" PRId64 " in dimension %" PRId64
                      ", and the two are one dynamic size",
                      fn, what, index, t->shape[d], d, symbols->what[k],
                      symbols->index[k], symbols->size[k], symbols->dim[k]);
      return TAD_ERROR_SHAPE;
    }
  }
  return TAD_OK;
}

/* Whether a tensor of this (already checked) shape has no elements. */
static int is_empty(const int64_t *shape, int32_t rank) {
  for (int32_t d = 0; d < rank; ++d)
    if (shape[d] == 0)
      return 1;
  return 0;
}

/* The name of a signature's dtype, "?" if unknown. */
static const char *dtype_text(int32_t dtype) {
  const char *name = __tad_dtype_name(dtype);
  return name ? name : "?";
}

/* Checks one argument or result (`what`) against its static type. */
static int32_t check_tensor(const char *fn, const char *what, int64_t index,
                            const tad_tensor *t, const tad_tensor_type *type,
                            int accept_device) {
  /* Memory flags sit above the dtype code; unknown flags make the code
   * unknown. */
  int device = t->dtype >= 0 && (t->dtype & TAD_MEMORY_DEVICE);
  int32_t dtype = device ? t->dtype & ~TAD_MEMORY_DEVICE : t->dtype;
  if (dtype != type->dtype) {
    const char *actual = __tad_dtype_name(dtype);
    if (actual)
      __tad_set_error("%s: %s %" PRId64 " has dtype %s, expected %s", fn, what,
                      index, actual, dtype_text(type->dtype));
    else
      __tad_set_error("%s: %s %" PRId64 " has unknown dtype %" PRId32
                      ", expected %s",
                      fn, what, index, dtype, dtype_text(type->dtype));
    return TAD_ERROR_DTYPE;
  }

  /* Formatted only for a message: every call checks every tensor. */
  char expected[SHAPE_TEXT_CAPACITY];
  if (t->rank != type->rank) {
    format_shape(expected, type->shape, type->rank, 1);
    __tad_set_error("%s: %s %" PRId64 " has rank %" PRId32
                    ", expected rank %" PRId32 " (shape %s)",
                    fn, what, index, t->rank, type->rank, expected);
    return TAD_ERROR_RANK;
  }
  if (t->rank > 0 && !t->shape) {
    __tad_set_error("%s: %s %" PRId64 " has a null shape pointer (rank %" PRId32
                    ")",
                    fn, what, index, t->rank);
    return TAD_ERROR_NULL;
  }
  for (int32_t d = 0; d < t->rank; ++d) {
    if (!dim_matches(type->shape[d], t->shape[d])) {
      char actual[SHAPE_TEXT_CAPACITY];
      format_shape(actual, t->shape, t->rank, 0);
      format_shape(expected, type->shape, type->rank, 1);
      __tad_set_error("%s: %s %" PRId64 " has shape %s, expected %s", fn, what,
                      index, actual, expected);
      return TAD_ERROR_SHAPE;
    }
  }
  if (!t->data && !is_empty(t->shape, t->rank)) {
    __tad_set_error("%s: %s %" PRId64 " has a null data pointer", fn, what,
                    index);
    return TAD_ERROR_NULL;
  }
  if (device && !accept_device) {
    __tad_set_error("%s: %s %" PRId64 " is in device memory, but this module "
                    "runs on the CPU (pass host memory, or compile with "
                    "--target=cuda)",
                    fn, what, index);
    return TAD_ERROR_MEMORY;
  }
  return TAD_OK;
}

/* Checks that `count` tensors were passed where `expected` were declared. */
static int32_t check_count(const char *fn, const char *what, int32_t expected,
                           int64_t count, const tad_tensor *tensors) {
  if (count != expected) {
    __tad_set_error("%s: expected %" PRId32 " %s%s, got %" PRId64, fn, expected,
                    what, expected == 1 ? "" : "s", count);
    return TAD_ERROR_ARG_COUNT;
  }
  if (count > 0 && !tensors) {
    __tad_set_error("%s: the %s array is null (%" PRId32 " %s%s expected)", fn,
                    what, expected, what, expected == 1 ? "" : "s");
    return TAD_ERROR_NULL;
  }
  return TAD_OK;
}

static int32_t check_call(const tad_function_info *fn, const tad_tensor *args,
                          int64_t num_args, tad_tensor *results,
                          int64_t num_results, int accept_device) {
  if (!fn) {
    __tad_set_error("tad: call without a function signature");
    return TAD_ERROR_NULL;
  }
  const char *name = fn->name ? fn->name : "<unnamed function>";
  int32_t status;
  symbol_bindings symbols;
  memset(symbols.bound, 0, sizeof symbols.bound);
  if ((status = check_count(name, "argument", fn->num_args, num_args, args)) ||
      (status = check_count(name, "result", fn->num_results, num_results,
                            results)))
    return status;
  for (int64_t i = 0; i < num_args; ++i)
    if ((status = check_tensor(name, "argument", i, &args[i], &fn->args[i],
                               accept_device)) ||
        (status = check_symbols(name, "argument", i, &args[i], &fn->args[i],
                                &symbols)))
      return status;
  /* Results after all arguments: every symbol is an argument's size. */
  for (int64_t i = 0; i < num_results; ++i)
    if ((status = check_tensor(name, "result", i, &results[i],
                               &fn->results[i], accept_device)) ||
        (status = check_symbols(name, "result", i, &results[i],
                                &fn->results[i], &symbols)))
      return status;
  __tad_clear_error();
  return TAD_OK;
}

int32_t __tad_check_call(const tad_function_info *fn, const tad_tensor *args,
                         int64_t num_args, tad_tensor *results,
                         int64_t num_results) {
  return check_call(fn, args, num_args, results, num_results, 0);
}

int32_t __tad_check_device_call(const tad_function_info *fn,
                                const tad_tensor *args, int64_t num_args,
                                tad_tensor *results, int64_t num_results) {
  return check_call(fn, args, num_args, results, num_results, 1);
}

int64_t __tad_tensor_bytes(const tad_tensor *t) {
  int64_t bytes = __tad_dtype_size(TAD_DTYPE_CODE(t->dtype));
  for (int32_t d = 0; d < t->rank; ++d)
    bytes *= t->shape[d];
  return bytes;
}
