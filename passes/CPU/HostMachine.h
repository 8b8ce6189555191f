//===- HostMachine.h - the target of the CPU schedules ---------*- C++ -*-===//
//
// tad compiles for the machine it runs on (ObjectEmitter targets the host
// CPU), so the CPU schedules (tad-vectorize-contractions,
// tad-vectorize-convolutions, tad-vectorize-transposes) size their tiles from
// the host's vector registers, cache sizes and cores. Each of these can be
// pinned, so that a compile (and a test's verdict) does not depend on the
// machine: by the passes' options, or for a whole compile by the environment
// variables TAD_HOST_VECTOR_BITS, TAD_HOST_VECTOR_REGISTERS,
// TAD_HOST_L1_BYTES, TAD_HOST_L2_BYTES, TAD_HOST_CORES and TAD_HOST_AMX
// (1 or 0: whether bf16 matmuls use AMX tiles).
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_HOSTMACHINE_H
#define TAD_PASSES_HOSTMACHINE_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace mlir::tad {

/// Where a field of the machine model came from.
enum class HostSource { Environment, Sysfs, Sysconf, CpuFeatures, Default };

struct HostMachine {
  int64_t vectorBits = 128; // widest vector register
  int64_t numVectors = 16;  // architectural vector registers
  int64_t l1Bytes = 32 * 1024;  // L1 data cache per core
  int64_t l2Bytes = 512 * 1024; // L2 cache per core
  int64_t cores = 1;            // cores the compiled code may run on
  /// AMX tiles with bf16 products (amx-tile, amx-bf16) that the OS lets
  /// processes use: bf16 matmuls run on them (passes/CPU/Bf16Matmul.cpp).
  bool amxBf16 = false;
  /// bf16 matmuls on AVX512-BF16 dot products (VDPBF16PS), where the host
  /// has them and no AMX: on AMD Zen 4 and 5 twice the multiply-adds of an
  /// f32 FMA (Intel's AVX512-BF16 CPUs without AMX, Cooper Lake, do as many
  /// as its two FMA ports).
  bool bf16Dot = false;

  HostSource vectorSource = HostSource::Default;
  HostSource l1Source = HostSource::Default;
  HostSource l2Source = HostSource::Default;
  HostSource coresSource = HostSource::Default;
  HostSource amxSource = HostSource::Default;
  HostSource bf16DotSource = HostSource::Default;

  /// Values that replace the model's where positive (a pass's options;
  /// 0 keeps the model's); `amx` and `bf16Dot` 1 or 0 pin amxBf16 and
  /// bf16Dot, -1 keeps them.
  struct Overrides {
    int64_t vectorBits, vectorRegisters, l1Bytes, l2Bytes, cores;
    int64_t amx = -1, bf16Dot = -1;
  };
  HostMachine withOverrides(const Overrides &overrides) const;

  /// One line per field: its value and where it came from.
  void print(llvm::raw_ostream &os) const;
  /// Whether a field fell back to a built-in default (detection failed).
  bool usesDefaults() const;
};

/// What detection reads, so that it can be tested against fixtures: the CPU
/// feature flags, a sysfs CPU folder (`<dir>/cpu0/cache/index*/{level,type,
/// size}`), glibc's sysconf cache sizes (<= 0: unknown), the number of
/// hardware threads (0: unknown) and the environment.
struct HostProbe {
  llvm::StringMap<bool> cpuFeatures;
  std::string sysfsCpuDir;
  long sysconfL1 = -1, sysconfL2 = -1;
  unsigned hardwareThreads = 0;
  /// Whether the OS supports AMX tile data for processes (Linux's
  /// ARCH_GET_XCOMP_SUPP); the CPU features say whether the CPU has it.
  bool osAmxTileData = false;
  std::function<std::optional<std::string>(llvm::StringRef)> getEnv;

  /// The probe of the machine this process runs on.
  static HostProbe ofThisMachine();
};

/// The machine model from `probe`: environment overrides first, then sysfs,
/// sysconf and the CPU features, else the defaults above.
HostMachine detectHostMachine(const HostProbe &probe);

/// The machine model of this host (detected once per process).
const HostMachine &hostMachine();

} // namespace mlir::tad

#endif // TAD_PASSES_HOSTMACHINE_H
