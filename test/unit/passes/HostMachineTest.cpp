//===- HostMachineTest.cpp - host detection against fixture machines -----===//
//
// Detection reads CPU features, a sysfs tree, sysconf and the environment;
// each test gives it a fixture of those, so the verdicts do not depend on the
// machine that runs them.
//
//===----------------------------------------------------------------------===//

#include "passes/CPU/HostMachine.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <map>

using namespace mlir::tad;

namespace {

/// A temporary sysfs CPU folder with caches given as (index, level, type,
/// size text).
class FakeSysfs {
public:
  FakeSysfs() {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("tad-sysfs", root));
  }
  ~FakeSysfs() { llvm::sys::fs::remove_directories(root); }

  void addCache(int index, llvm::StringRef level, llvm::StringRef type,
                llvm::StringRef size) {
    llvm::SmallString<128> dir(root);
    llvm::sys::path::append(dir, "cpu0", "cache",
                            "index" + std::to_string(index));
    ASSERT_FALSE(llvm::sys::fs::create_directories(dir));
    write(dir, "level", level);
    write(dir, "type", type);
    write(dir, "size", size);
  }

  std::string path() const { return root.str().str(); }

private:
  static void write(llvm::StringRef dir, llvm::StringRef name,
                    llvm::StringRef text) {
    llvm::SmallString<128> file(dir);
    llvm::sys::path::append(file, name);
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    ASSERT_FALSE(ec);
    os << text << "\n";
  }

  llvm::SmallString<128> root;
};

HostProbe zen4Probe(std::string sysfsDir) {
  HostProbe probe;
  probe.cpuFeatures["avx512f"] = true;
  probe.cpuFeatures["avx2"] = true;
  probe.sysfsCpuDir = std::move(sysfsDir);
  probe.hardwareThreads = 2;
  return probe;
}

HostProbe withEnv(HostProbe probe, std::map<std::string, std::string> env) {
  probe.getEnv = [env](llvm::StringRef name) -> std::optional<std::string> {
    auto it = env.find(name.str());
    if (it == env.end())
      return std::nullopt;
    return it->second;
  };
  return probe;
}

TEST(HostMachineTest, CachesFromSysfs) {
  FakeSysfs sysfs;
  sysfs.addCache(0, "1", "Data", "32K");
  sysfs.addCache(1, "1", "Instruction", "32K");
  sysfs.addCache(2, "2", "Unified", "1024K");
  sysfs.addCache(3, "3", "Unified", "32768K");
  HostProbe probe = zen4Probe(sysfs.path());
  probe.sysconfL1 = 49152; // sysfs wins over sysconf
  HostMachine m = detectHostMachine(probe);
  EXPECT_EQ(m.l1Bytes, 32 * 1024);
  EXPECT_EQ(m.l2Bytes, 1024 * 1024);
  EXPECT_EQ(m.l1Source, HostSource::Sysfs);
  EXPECT_EQ(m.l2Source, HostSource::Sysfs);
  EXPECT_EQ(m.vectorBits, 512);
  EXPECT_EQ(m.numVectors, 32);
  EXPECT_EQ(m.cores, 2);
  EXPECT_FALSE(m.usesDefaults());
}

TEST(HostMachineTest, MegabyteSizes) {
  FakeSysfs sysfs;
  sysfs.addCache(0, "1", "Data", "48K");
  sysfs.addCache(2, "2", "Unified", "2M");
  HostMachine m = detectHostMachine(zen4Probe(sysfs.path()));
  EXPECT_EQ(m.l1Bytes, 48 * 1024);
  EXPECT_EQ(m.l2Bytes, 2 * 1024 * 1024);
}

// A machine without cache information in sysfs (seen on virtual machines):
// sysconf's sizes are used, and without those the defaults, reported as such.
TEST(HostMachineTest, MissingSysfsFallsBackToSysconf) {
  FakeSysfs empty;
  HostProbe probe = zen4Probe(empty.path());
  probe.sysconfL1 = 49152;
  probe.sysconfL2 = 1048576;
  HostMachine m = detectHostMachine(probe);
  EXPECT_EQ(m.l1Bytes, 49152);
  EXPECT_EQ(m.l2Bytes, 1048576);
  EXPECT_EQ(m.l1Source, HostSource::Sysconf);
  EXPECT_FALSE(m.usesDefaults());
}

TEST(HostMachineTest, NothingDetectedUsesDefaults) {
  HostProbe probe;
  probe.sysfsCpuDir = "/nonexistent/tad/sysfs";
  HostMachine m = detectHostMachine(probe);
  EXPECT_EQ(m.vectorBits, 128);
  EXPECT_EQ(m.numVectors, 16);
  EXPECT_EQ(m.l1Bytes, 32 * 1024);
  EXPECT_EQ(m.l2Bytes, 512 * 1024);
  EXPECT_EQ(m.cores, 1);
  EXPECT_TRUE(m.usesDefaults());
  std::string text;
  llvm::raw_string_ostream os(text);
  m.print(os);
  EXPECT_NE(text.find("L2 bytes: 524288 (default: not detected)"),
            std::string::npos)
      << text;
}

TEST(HostMachineTest, MalformedSysfsEntriesAreIgnored) {
  FakeSysfs sysfs;
  sysfs.addCache(0, "1", "Data", "lots");
  sysfs.addCache(1, "2", "Unified", "-4K");
  HostProbe probe = zen4Probe(sysfs.path());
  probe.sysconfL2 = 1048576;
  HostMachine m = detectHostMachine(probe);
  EXPECT_EQ(m.l1Source, HostSource::Default);
  EXPECT_EQ(m.l2Source, HostSource::Sysconf);
}

TEST(HostMachineTest, AvxWithoutAvx512) {
  HostProbe probe;
  probe.cpuFeatures["avx2"] = true;
  HostMachine m = detectHostMachine(probe);
  EXPECT_EQ(m.vectorBits, 256);
  EXPECT_EQ(m.numVectors, 16);
}

// The environment pins every field over whatever was detected; values that
// are not positive integers are ignored.
TEST(HostMachineTest, EnvironmentPinsTheModel) {
  FakeSysfs sysfs;
  sysfs.addCache(0, "1", "Data", "48K");
  HostProbe probe = withEnv(zen4Probe(sysfs.path()),
                            {{"TAD_HOST_VECTOR_BITS", "256"},
                             {"TAD_HOST_VECTOR_REGISTERS", "16"},
                             {"TAD_HOST_L1_BYTES", "32768"},
                             {"TAD_HOST_L2_BYTES", "1048576"},
                             {"TAD_HOST_CORES", "8"}});
  HostMachine m = detectHostMachine(probe);
  EXPECT_EQ(m.vectorBits, 256);
  EXPECT_EQ(m.numVectors, 16);
  EXPECT_EQ(m.l1Bytes, 32768);
  EXPECT_EQ(m.l2Bytes, 1048576);
  EXPECT_EQ(m.cores, 8);
  EXPECT_EQ(m.l1Source, HostSource::Environment);

  HostMachine bad = detectHostMachine(withEnv(
      zen4Probe(sysfs.path()),
      {{"TAD_HOST_L1_BYTES", "0"}, {"TAD_HOST_CORES", "two"}}));
  EXPECT_EQ(bad.l1Bytes, 48 * 1024);
  EXPECT_EQ(bad.cores, 2);
}

} // namespace

namespace {
// A pass's options replace the model's values where positive.
TEST(HostMachineTest, PassOptionsOverride) {
  HostMachine m = detectHostMachine(zen4Probe("/nonexistent/tad/sysfs"));
  HostMachine pinned = m.withOverrides({256, 16, 0, 2 << 20, 0});
  EXPECT_EQ(pinned.vectorBits, 256);
  EXPECT_EQ(pinned.numVectors, 16);
  EXPECT_EQ(pinned.l1Bytes, m.l1Bytes);
  EXPECT_EQ(pinned.l2Bytes, 2 << 20);
  EXPECT_EQ(pinned.cores, 2);
  EXPECT_FALSE(pinned.bf16Dot);
  HostMachine dot = m.withOverrides({0, 0, 0, 0, 0, /*amx=*/0, /*bf16Dot=*/1});
  EXPECT_TRUE(dot.bf16Dot);
  EXPECT_FALSE(dot.amxBf16);
}

// bf16 matmuls: AMX where the CPU and the OS allow it; else AVX512-BF16 dot
// products where the CPU has them (Zen 4 and 5); the environment pins both.
TEST(HostMachineTest, Bf16Kernels) {
  HostProbe zen4 = zen4Probe("/nonexistent/tad/sysfs");
  zen4.cpuFeatures["avx512bf16"] = true;
  HostMachine m = detectHostMachine(zen4);
  EXPECT_FALSE(m.amxBf16);
  EXPECT_TRUE(m.bf16Dot);

  HostProbe sapphireRapids = zen4;
  sapphireRapids.cpuFeatures["amx-tile"] = true;
  sapphireRapids.cpuFeatures["amx-bf16"] = true;
  sapphireRapids.osAmxTileData = true;
  m = detectHostMachine(sapphireRapids);
  EXPECT_TRUE(m.amxBf16);
  EXPECT_FALSE(m.bf16Dot);

  // Without the OS's AMX state the dot products are the kernel.
  sapphireRapids.osAmxTileData = false;
  m = detectHostMachine(sapphireRapids);
  EXPECT_FALSE(m.amxBf16);
  EXPECT_TRUE(m.bf16Dot);

  // 0 pins a kernel off (other sizes ignore 0: it is not a size).
  sapphireRapids.osAmxTileData = true;
  m = detectHostMachine(withEnv(sapphireRapids, {{"TAD_HOST_AMX", "0"}}));
  EXPECT_FALSE(m.amxBf16);
  EXPECT_EQ(m.amxSource, HostSource::Environment);
  m = detectHostMachine(withEnv(zen4, {{"TAD_HOST_BF16_DOT", "0"}}));
  EXPECT_FALSE(m.bf16Dot);
  EXPECT_EQ(m.bf16DotSource, HostSource::Environment);
  m = detectHostMachine(withEnv(zen4Probe("/nonexistent/tad/sysfs"),
                                {{"TAD_HOST_BF16_DOT", "1"}}));
  EXPECT_TRUE(m.bf16Dot);
}
} // namespace
