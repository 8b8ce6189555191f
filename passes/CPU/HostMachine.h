//===- HostMachine.h - the target of the CPU schedules ---------*- C++ -*-===//
//
// tad compiles for the machine it runs on (ObjectEmitter targets the host
// CPU), so the CPU schedules (tad-vectorize-contractions,
// tad-vectorize-transposes) size their tiles from the host's vector width and
// cache sizes.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_HOSTMACHINE_H
#define TAD_PASSES_HOSTMACHINE_H

#include <cstdint>

namespace mlir::tad {

struct HostMachine {
  int64_t vectorBits; // widest vector register
  int64_t numVectors; // architectural vector registers
  int64_t l1Bytes;    // L1 data cache per core
  int64_t l2Bytes;    // L2 cache per core
};

/// The host: AVX-512 → 512 bits and 32 registers, AVX/AVX2 → 256 and 16,
/// else 128 and 16; caches from sysconf (fallback 32 KiB / 512 KiB).
HostMachine hostMachine();

} // namespace mlir::tad

#endif // TAD_PASSES_HOSTMACHINE_H
