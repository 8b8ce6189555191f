//===- HostMachine.cpp - what the CPU schedules know about the target -----===//
#include "passes/CPU/HostMachine.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

#include <unistd.h>

mlir::tad::HostMachine mlir::tad::hostMachine() {
  HostMachine m{128, 16, 32 * 1024, 512 * 1024};
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  if (features.lookup("avx512f"))
    m = {512, 32, m.l1Bytes, m.l2Bytes};
  else if (features.lookup("avx2") || features.lookup("avx"))
    m = {256, 16, m.l1Bytes, m.l2Bytes};
  long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE);
  long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l1 > 0)
    m.l1Bytes = l1;
  if (l2 > 0)
    m.l2Bytes = l2;
  return m;
}
