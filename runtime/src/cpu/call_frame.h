/*===- call_frame.h - a running call, between call.c and alloc_cache.c ---===*
 *
 * Private to the runtime: the frame that __tad_run (call.c) opens around an
 * implementation, and what the allocator (alloc_cache.c) does with it.
 *===----------------------------------------------------------------------===*/
#ifndef TAD_CPU_CALL_FRAME_H
#define TAD_CPU_CALL_FRAME_H

#include "tad/runtime_internal.h"

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tad_call_frame {
  jmp_buf unwind;                  /* where a failed allocation returns */
  const tad_function_info *fn;     /* the function called, for messages */
  struct tad_call_frame *outer;    /* the frame this one interrupts */
  void *live;                      /* temporaries allocated and not yet freed
                                      (alloc_cache.c's list) */
} tad_call_frame;

/* The calling thread's innermost frame; null outside __tad_run. */
TAD_HIDDEN tad_call_frame *__tad_current_call(void);

/* Ends the current call after an allocation of `bytes` failed: frees its
 * temporaries, stores "f: out of memory: cannot allocate N bytes (X GiB)
 * for a temporary" and returns TAD_ERROR_MEMORY from __tad_run. Without a
 * frame, prints the message and aborts. */
TAD_HIDDEN _Noreturn void __tad_fail_allocation(size_t bytes);

/* Ends the current call after a check found `index` outside [lo, hi) in
 * the op `site` describes ("tad.embedding at m.mlir:3:8"): frees its
 * temporaries, stores "f: index 7 is out of range [0, 5) in <site>" and
 * returns TAD_ERROR_INDEX from __tad_run. Called by generated code
 * (passes/ABI/CheckIndices.cpp). Without a frame, prints and aborts. */
TAD_HIDDEN _Noreturn void __tad_fail_index(int64_t index, int64_t lo,
                                           int64_t hi, const char *site);

/* Ends the current call after a check found that dimension `dim` of
 * operand `operand` of the op `site` describes has size `actual` where the
 * op needs `expected` (dynamic sizes that disagree); `dim` -1 compares
 * element counts, -2 asks for a multiple of `expected`. Frees the call's
 * temporaries, stores "f: operand 1 has size 5 in dimension 0, expected 7
 * in <site>" and returns TAD_ERROR_SHAPE from __tad_run. Called by
 * generated code (passes/ABI/CheckShapes.cpp). Without a frame, prints and
 * aborts. */
TAD_HIDDEN _Noreturn void __tad_fail_shape(int64_t actual, int64_t expected,
                                           int64_t operand, int64_t dim,
                                           const char *site);

/* Ends the current call after the entry check of a minimum (`tad.dim_min`)
 * found dimension `dim` of argument `argument` at `actual`, below `minimum`;
 * `size` describes the dynamic size ("the dynamic size 'B'"). Stores "f:
 * argument 0 has size 1 in dimension 0, but <size> must be at least 2" and
 * returns TAD_ERROR_SHAPE from __tad_run. Called by generated code
 * (passes/ABI/CheckShapes.cpp). Without a frame, prints and aborts. */
TAD_HIDDEN _Noreturn void __tad_fail_minimum(int64_t actual, int64_t minimum,
                                             int64_t argument, int64_t dim,
                                             const char *size);

/* The same above a maximum (`tad.dim_max`): "... must be at most 64". */
TAD_HIDDEN _Noreturn void __tad_fail_maximum(int64_t actual, int64_t maximum,
                                             int64_t argument, int64_t dim,
                                             const char *size);

/* Asks the OS for AMX tile state once per process on CPUs with AMX (bf16
 * matmuls run on AMX tiles there); called by __tad_run. Defined by amx.c. */
TAD_HIDDEN void __tad_prepare_amx(void);

/* Ends the current call with TAD_ERROR_RUNTIME and the message "f:
 * <message>" (f the function called), freeing its temporaries; used by
 * the MPI layer (mpi.c). Without a frame, prints and aborts. */
TAD_HIDDEN _Noreturn void __tad_fail_runtime(const char *message);

/* Before a failing call frees its temporaries: waits until the
 * collectives it started have run (they write into its temporaries).
 * Defined by mpi.c. */
TAD_HIDDEN void __tad_mpi_abandon_collectives(void);

/* Detaches the temporaries `frame` still holds from it; frees them too when
 * `free_them` (the call failed and will not use them again). Defined by
 * alloc_cache.c. */
TAD_HIDDEN void __tad_release_call_temporaries(tad_call_frame *frame,
                                               int free_them);

#endif /* TAD_CPU_CALL_FRAME_H */
