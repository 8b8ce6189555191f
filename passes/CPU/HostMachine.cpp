//===- HostMachine.cpp - what the CPU schedules know about the target -----===//
#include "passes/CPU/HostMachine.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>
#include <thread>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

using namespace mlir::tad;

namespace {

std::optional<std::string> readLine(const llvm::Twine &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return std::nullopt;
  return (*buffer)->getBuffer().trim().str();
}

/// sysfs sizes read "48K", "1024K" or "32M".
std::optional<int64_t> parseCacheSize(llvm::StringRef text) {
  int64_t scale = 1;
  if (text.consume_back("K"))
    scale = 1024;
  else if (text.consume_back("M"))
    scale = 1024 * 1024;
  int64_t value;
  if (text.getAsInteger(10, value) || value <= 0)
    return std::nullopt;
  return value * scale;
}

/// The L1 data and L2 cache sizes of cpu0 from sysfs (0 where absent).
std::pair<int64_t, int64_t> sysfsCacheSizes(llvm::StringRef cpuDir) {
  int64_t l1 = 0, l2 = 0;
  if (cpuDir.empty())
    return {l1, l2};
  llvm::SmallString<128> cacheDir(cpuDir);
  llvm::sys::path::append(cacheDir, "cpu0", "cache");
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(cacheDir, ec), end;
       !ec && it != end; it.increment(ec)) {
    llvm::StringRef index = it->path();
    if (!llvm::sys::path::filename(index).starts_with("index"))
      continue;
    auto level = readLine(index + "/level");
    auto type = readLine(index + "/type");
    auto sizeText = readLine(index + "/size");
    if (!level || !type || !sizeText)
      continue;
    std::optional<int64_t> size = parseCacheSize(*sizeText);
    if (!size)
      continue;
    if (*level == "1" && *type == "Data")
      l1 = *size;
    else if (*level == "2" && (*type == "Unified" || *type == "Data"))
      l2 = *size;
  }
  return {l1, l2};
}

/// A positive integer from the environment variable `name`, if set.
std::optional<int64_t> envInt(const HostProbe &probe, llvm::StringRef name) {
  if (!probe.getEnv)
    return std::nullopt;
  std::optional<std::string> text = probe.getEnv(name);
  int64_t value;
  if (!text || llvm::StringRef(*text).trim().getAsInteger(10, value) ||
      value <= 0)
    return std::nullopt;
  return value;
}

/// 0 or 1 from the environment variable `name`, if set to one of them.
std::optional<bool> envFlag(const HostProbe &probe, llvm::StringRef name) {
  if (!probe.getEnv)
    return std::nullopt;
  std::optional<std::string> text = probe.getEnv(name);
  if (!text)
    return std::nullopt;
  llvm::StringRef value = llvm::StringRef(*text).trim();
  if (value != "0" && value != "1")
    return std::nullopt;
  return value == "1";
}

llvm::StringRef sourceName(HostSource source) {
  switch (source) {
  case HostSource::Environment:
    return "environment";
  case HostSource::Sysfs:
    return "sysfs";
  case HostSource::Sysconf:
    return "sysconf";
  case HostSource::CpuFeatures:
    return "cpu features";
  case HostSource::Default:
    return "default: not detected";
  }
  llvm_unreachable("unknown host source");
}

} // namespace

/// Whether Linux lets processes use AMX tile data (XFEATURE_XTILEDATA in
/// ARCH_GET_XCOMP_SUPP; a process still requests it before its first tile
/// instruction, runtime/src/cpu/amx.c).
static bool osSupportsAmxTileData() {
#if defined(__linux__) && defined(__x86_64__)
  constexpr int kArchGetXcompSupp = 0x1021, kXfeatureXtiledata = 18;
  uint64_t features = 0;
  if (syscall(SYS_arch_prctl, kArchGetXcompSupp, &features) != 0)
    return false;
  return features & (uint64_t(1) << kXfeatureXtiledata);
#else
  return false;
#endif
}

HostProbe HostProbe::ofThisMachine() {
  HostProbe probe;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    probe.cpuFeatures[feature.getKey()] = feature.getValue();
  probe.sysfsCpuDir = "/sys/devices/system/cpu";
  probe.sysconfL1 = sysconf(_SC_LEVEL1_DCACHE_SIZE);
  probe.sysconfL2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  probe.hardwareThreads = std::thread::hardware_concurrency();
  probe.osAmxTileData = osSupportsAmxTileData();
  probe.getEnv = [](llvm::StringRef name) -> std::optional<std::string> {
    if (const char *value = std::getenv(name.str().c_str()))
      return std::string(value);
    return std::nullopt;
  };
  return probe;
}

HostMachine mlir::tad::detectHostMachine(const HostProbe &probe) {
  HostMachine m;
  if (probe.cpuFeatures.lookup("avx512f")) {
    m.vectorBits = 512;
    m.numVectors = 32;
    m.vectorSource = HostSource::CpuFeatures;
  } else if (probe.cpuFeatures.lookup("avx2") ||
             probe.cpuFeatures.lookup("avx")) {
    m.vectorBits = 256;
    m.vectorSource = HostSource::CpuFeatures;
  } else if (probe.cpuFeatures.lookup("sse2")) {
    m.vectorSource = HostSource::CpuFeatures;
  }

  auto [sysfsL1, sysfsL2] = sysfsCacheSizes(probe.sysfsCpuDir);
  auto pickCache = [](int64_t sysfs, long sysconfSize, int64_t &bytes,
                      HostSource &source) {
    if (sysfs > 0) {
      bytes = sysfs;
      source = HostSource::Sysfs;
    } else if (sysconfSize > 0) {
      bytes = sysconfSize;
      source = HostSource::Sysconf;
    }
  };
  pickCache(sysfsL1, probe.sysconfL1, m.l1Bytes, m.l1Source);
  pickCache(sysfsL2, probe.sysconfL2, m.l2Bytes, m.l2Source);
  if (probe.hardwareThreads > 0) {
    m.cores = probe.hardwareThreads;
    m.coresSource = HostSource::Sysconf;
  }
  m.amxBf16 = probe.cpuFeatures.lookup("amx-tile") &&
              probe.cpuFeatures.lookup("amx-bf16") && probe.osAmxTileData;
  m.amxSource = HostSource::CpuFeatures;
  m.bf16Dot = probe.cpuFeatures.lookup("avx512bf16") && !m.amxBf16;
  m.bf16DotSource = HostSource::CpuFeatures;

  auto pin = [&](llvm::StringRef name, int64_t &field, HostSource *source) {
    if (std::optional<int64_t> value = envInt(probe, name)) {
      field = *value;
      if (source)
        *source = HostSource::Environment;
    }
  };
  pin("TAD_HOST_VECTOR_BITS", m.vectorBits, &m.vectorSource);
  pin("TAD_HOST_VECTOR_REGISTERS", m.numVectors, &m.vectorSource);
  pin("TAD_HOST_L1_BYTES", m.l1Bytes, &m.l1Source);
  pin("TAD_HOST_L2_BYTES", m.l2Bytes, &m.l2Source);
  pin("TAD_HOST_CORES", m.cores, &m.coresSource);
  // Kernels are pinned on (1) or off (0).
  auto pinFlag = [&](llvm::StringRef name, bool &field, HostSource &source) {
    if (std::optional<bool> value = envFlag(probe, name)) {
      field = *value;
      source = HostSource::Environment;
    }
  };
  pinFlag("TAD_HOST_AMX", m.amxBf16, m.amxSource);
  pinFlag("TAD_HOST_BF16_DOT", m.bf16Dot, m.bf16DotSource);
  return m;
}

const HostMachine &mlir::tad::hostMachine() {
  static const HostMachine machine =
      detectHostMachine(HostProbe::ofThisMachine());
  return machine;
}

HostMachine HostMachine::withOverrides(const Overrides &overrides) const {
  HostMachine m = *this;
  auto pin = [](int64_t value, int64_t &field) {
    if (value > 0)
      field = value;
  };
  pin(overrides.vectorBits, m.vectorBits);
  pin(overrides.vectorRegisters, m.numVectors);
  pin(overrides.l1Bytes, m.l1Bytes);
  pin(overrides.l2Bytes, m.l2Bytes);
  pin(overrides.cores, m.cores);
  if (overrides.amx >= 0)
    m.amxBf16 = overrides.amx != 0;
  if (overrides.bf16Dot >= 0)
    m.bf16Dot = overrides.bf16Dot != 0;
  return m;
}

bool HostMachine::usesDefaults() const {
  return llvm::is_contained({vectorSource, l1Source, l2Source, coresSource},
                            HostSource::Default);
}

void HostMachine::print(llvm::raw_ostream &os) const {
  os << "vector bits: " << vectorBits << " (" << sourceName(vectorSource)
     << ")\n"
     << "vector registers: " << numVectors << " (" << sourceName(vectorSource)
     << ")\n"
     << "L1 data bytes: " << l1Bytes << " (" << sourceName(l1Source) << ")\n"
     << "L2 bytes: " << l2Bytes << " (" << sourceName(l2Source) << ")\n"
     << "cores: " << cores << " (" << sourceName(coresSource) << ")\n"
     << "AMX bf16: " << (amxBf16 ? "yes" : "no") << " ("
     << sourceName(amxSource) << ")\n"
     << "AVX512-BF16 dot: " << (bf16Dot ? "yes" : "no") << " ("
     << sourceName(bf16DotSource) << ")\n";
}
