/*===- call.c - running an implementation so that failures are statuses ---===*
 *
 * An entry point runs its implementation through __tad_run, which opens a
 * call frame on the calling thread and calls the implementation. Generated
 * code allocates its temporaries through the allocator of alloc_cache.c;
 * when an allocation fails, the allocator cannot return null (generated
 * code does not check), so it calls __tad_fail_allocation instead, which
 * frees the temporaries the call still holds, stores the message and jumps
 * back into __tad_run, which returns TAD_ERROR_MEMORY.
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
  tad_call_frame frame;
  frame.fn = fn;
  frame.outer = current_frame;
  frame.live = NULL;
  current_frame = &frame;
  if (setjmp(frame.unwind) == 0) {
    impl(pointers);
    __tad_release_call_temporaries(&frame, /*free_them=*/0);
    current_frame = frame.outer;
    return TAD_OK;
  }
  /* __tad_fail_allocation freed the temporaries, stored the message and
   * restored current_frame before jumping here. */
  return TAD_ERROR_MEMORY;
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
  __tad_release_call_temporaries(frame, /*free_them=*/1);
  __tad_set_error("%s: out of memory: cannot allocate %zu bytes (%.1f GiB) "
                  "for a temporary",
                  name, bytes, gib);
  current_frame = frame->outer;
  longjmp(frame->unwind, 1);
}
