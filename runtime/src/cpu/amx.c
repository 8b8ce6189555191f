/*===- amx.c - asking the OS for AMX tile state ---------------------------===*
 *
 * Linux gives a process the (8 KiB) AMX tile data state only on request
 * (arch_prctl ARCH_REQ_XCOMP_PERM); a tile instruction before it faults.
 * tadc puts bf16 matmuls on AMX tiles where the host has them and the OS
 * supports them (passes/CPU/AmxMatmul.cpp), so the runtime asks once per
 * process, before the first call of any entry point, on CPUs with AMX. The
 * permission holds for every thread of the process (OpenMP's too).
 *===----------------------------------------------------------------------===*/
#include "call_frame.h"

#if defined(__linux__) && defined(__x86_64__)
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TAD_ARCH_REQ_XCOMP_PERM 0x1023
#define TAD_XFEATURE_XTILEDATA 18

static int cpu_has_amx_tile(void) {
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
    return 0;
  return (edx >> 24) & 1; /* AMX-TILE */
}

void __tad_prepare_amx(void) {
  /* 0: not asked yet; 1: done (granted, refused or no AMX). Two threads
   * asking at once is harmless: the request is idempotent. */
  static int asked;
  if (__atomic_load_n(&asked, __ATOMIC_ACQUIRE))
    return;
  if (cpu_has_amx_tile())
    (void)syscall(SYS_arch_prctl, TAD_ARCH_REQ_XCOMP_PERM,
                  TAD_XFEATURE_XTILEDATA);
  __atomic_store_n(&asked, 1, __ATOMIC_RELEASE);
}
#else
void __tad_prepare_amx(void) {}
#endif
