/*===- call.c - running an implementation so that failures are statuses ---===*
 *
 * An entry point runs its implementation through __tad_run, which opens a
 * call frame on the calling thread and calls the implementation. Generated
 * code allocates its temporaries through the allocator of alloc_cache.c;
 * when an allocation fails, the allocator cannot return null (generated
 * code does not check), so it calls __tad_fail_allocation instead, which
 * frees the temporaries the call still holds, stores the message and jumps
 * back into __tad_run, which returns TAD_ERROR_MEMORY. Likewise an index
 * out of range (the checks of tad-check-indices call __tad_fail_index):
 * TAD_ERROR_INDEX; dynamic sizes that disagree (tad-check-shapes calls
 * __tad_fail_shape) or outside the bounds of a dynamic size
 * (__tad_fail_minimum, __tad_fail_maximum): TAD_ERROR_SHAPE; a failed MPI collective (mpi.c calls __tad_fail_runtime):
 * TAD_ERROR_RUNTIME.
 *
 * Generated code holds no other resource a jump could leak (no locks, no
 * files, no C++ frames), and allocations happen on the calling thread,
 * outside OpenMP parallel regions. A failure on a thread without a frame
 * (a worker thread) cannot be turned into a status: it aborts with the
 * message on stderr rather than writing through a null pointer.
 *===----------------------------------------------------------------------===*/
#include "call_frame.h"

#include <stdio.h>
#include <stdlib.h>

static _Thread_local tad_call_frame *current_frame;

tad_call_frame *__tad_current_call(void) { return current_frame; }

int32_t __tad_run(const tad_function_info *fn, tad_packed_impl impl,
                  void *const *pointers) {
  __tad_prepare_amx();
  tad_call_frame frame;
  frame.fn = fn;
  frame.outer = current_frame;
  frame.live = NULL;
  current_frame = &frame;
  int status = setjmp(frame.unwind);
  if (status == 0) {
    impl(pointers);
    __tad_release_call_temporaries(&frame, /*free_them=*/0);
    current_frame = frame.outer;
    return TAD_OK;
  }
  /* fail_call freed the temporaries, stored the message and restored
   * current_frame before jumping here with the status. */
  return status;
}

/* Ends the current call, `frame`, with `status`; the message is stored. */
static _Noreturn void fail_call(tad_call_frame *frame, int status) {
  __tad_mpi_abandon_collectives();
  __tad_release_call_temporaries(frame, /*free_them=*/1);
  current_frame = frame->outer;
  longjmp(frame->unwind, status);
}

void __tad_fail_allocation(size_t bytes) {
  tad_call_frame *frame = current_frame;
  const char *name = frame && frame->fn && frame->fn->name ? frame->fn->name
                                                           : "tad";
  double gib = (double)bytes / (double)(1ull << 30);
  if (!frame) {
    fprintf(stderr,
            "tad: out of memory: cannot allocate %zu bytes (%.1f GiB) outside "
            "the thread of a call; aborting\n",
            bytes, gib);
    abort();
  }
  __tad_set_error("%s: out of memory: cannot allocate %zu bytes (%.1f GiB) "
                  "for a temporary",
                  name, bytes, gib);
  fail_call(frame, TAD_ERROR_MEMORY);
}

void __tad_fail_index(int64_t index, int64_t lo, int64_t hi,
                      const char *site) {
  tad_call_frame *frame = current_frame;
  const char *name = frame && frame->fn && frame->fn->name ? frame->fn->name
                                                           : "tad";
  if (!frame) {
    fprintf(stderr,
            "tad: index %lld is out of range [%lld, %lld) in %s outside the "
            "thread of a call; aborting\n",
            (long long)index, (long long)lo, (long long)hi, site);
    abort();
  }
  __tad_set_error("%s: index %lld is out of range [%lld, %lld) in %s", name,
                  (long long)index, (long long)lo, (long long)hi, site);
  fail_call(frame, TAD_ERROR_INDEX);
}

void __tad_fail_shape(int64_t actual, int64_t expected, int64_t operand,
                      int64_t dim, const char *site) {
  tad_call_frame *frame = current_frame;
  const char *name = frame && frame->fn && frame->fn->name ? frame->fn->name
                                                           : "tad";
  char what[160];
  if (dim == -1)
    snprintf(what, sizeof what,
             "operand %lld has %lld elements, expected %lld", (long long)operand,
             (long long)actual, (long long)expected);
  else if (dim == -2)
    snprintf(what, sizeof what,
             "operand %lld has %lld elements, expected a multiple of %lld",
             (long long)operand, (long long)actual, (long long)expected);
  else
    snprintf(what, sizeof what,
             "operand %lld has size %lld in dimension %lld, expected %lld",
             (long long)operand, (long long)actual, (long long)dim,
             (long long)expected);
  if (!frame) {
    fprintf(stderr, "tad: %s in %s outside the thread of a call; aborting\n",
            what, site);
    abort();
  }
  __tad_set_error("%s: %s in %s", name, what, site);
  fail_call(frame, TAD_ERROR_SHAPE);
}

/* Ends the call after an entry check of a bound of a dynamic size. */
static _Noreturn void fail_bound(int64_t actual, int64_t bound,
                                 int64_t argument, int64_t dim,
                                 const char *size, const char *relation) {
  tad_call_frame *frame = current_frame;
  const char *name = frame && frame->fn && frame->fn->name ? frame->fn->name
                                                           : "tad";
  char what[256];
  snprintf(what, sizeof what,
           "argument %lld has size %lld in dimension %lld, but %s must be "
           "%s %lld",
           (long long)argument, (long long)actual, (long long)dim, size,
           relation, (long long)bound);
  if (!frame) {
    fprintf(stderr, "tad: %s, outside the thread of a call; aborting\n", what);
    abort();
  }
  __tad_set_error("%s: %s", name, what);
  fail_call(frame, TAD_ERROR_SHAPE);
}

void __tad_fail_minimum(int64_t actual, int64_t minimum, int64_t argument,
                        int64_t dim, const char *size) {
  fail_bound(actual, minimum, argument, dim, size, "at least");
}

void __tad_fail_maximum(int64_t actual, int64_t maximum, int64_t argument,
                        int64_t dim, const char *size) {
  fail_bound(actual, maximum, argument, dim, size, "at most");
}

void __tad_fail_runtime(const char *message) {
  tad_call_frame *frame = current_frame;
  const char *name = frame && frame->fn && frame->fn->name ? frame->fn->name
                                                           : "tad";
  if (!frame) {
    fprintf(stderr, "tad: %s (outside the thread of a call); aborting\n",
            message);
    abort();
  }
  __tad_set_error("%s: %s", name, message);
  fail_call(frame, TAD_ERROR_RUNTIME);
}
