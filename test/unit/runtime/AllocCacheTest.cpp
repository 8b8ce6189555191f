//===- AllocCacheTest.cpp - the caching allocator of generated code -------===//

#include "tad/runtime_internal.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

extern "C" {
void *_mlir_memref_to_llvm_alloc(size_t size);
void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size);
void _mlir_memref_to_llvm_free(void *ptr);
}

namespace {

bool alignedTo(void *p, uintptr_t alignment) {
  return reinterpret_cast<uintptr_t>(p) % alignment == 0;
}

// What the second call of a compiled function sees: the temporaries of the
// first call come back for the same sizes, none is mapped again.
TEST(AllocCache, FreedBlocksAreReusedBySize) {
  std::vector<size_t> sizes = {4 << 20, 100, 4 << 20, 64 * 1024};
  std::vector<void *> first;
  for (size_t size : sizes) {
    void *p = _mlir_memref_to_llvm_alloc(size);
    ASSERT_NE(p, nullptr);
    std::memset(p, 1, size); // usable for its whole size
    first.push_back(p);
  }
  for (void *p : first)
    _mlir_memref_to_llvm_free(p);
  std::set<void *> again;
  for (size_t size : sizes)
    again.insert(_mlir_memref_to_llvm_alloc(size));
  EXPECT_EQ(again, std::set<void *>(first.begin(), first.end()));
  for (void *p : again)
    _mlir_memref_to_llvm_free(p);
}

TEST(AllocCache, LiveBlocksAreDistinct) {
  void *a = _mlir_memref_to_llvm_alloc(256);
  void *b = _mlir_memref_to_llvm_alloc(256);
  EXPECT_NE(a, b);
  _mlir_memref_to_llvm_free(a);
  void *c = _mlir_memref_to_llvm_alloc(256);
  EXPECT_EQ(c, a);
  EXPECT_NE(c, b);
  _mlir_memref_to_llvm_free(b);
  _mlir_memref_to_llvm_free(c);
}

TEST(AllocCache, Alignment) {
  for (size_t size : {size_t(0), size_t(1), size_t(63), size_t(1000)}) {
    void *p = _mlir_memref_to_llvm_alloc(size);
    EXPECT_TRUE(alignedTo(p, 64)) << size;
    _mlir_memref_to_llvm_free(p);
  }
  for (size_t alignment : {size_t(16), size_t(64), size_t(256), size_t(4096)}) {
    void *p = _mlir_memref_to_llvm_aligned_alloc(alignment, 3000);
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(alignedTo(p, alignment)) << alignment;
    std::memset(p, 0, 3000);
    _mlir_memref_to_llvm_free(p);
  }
}

TEST(AllocCache, FreeOfNullIsANoOp) { _mlir_memref_to_llvm_free(nullptr); }


// A packed implementation (what an entry point passes to __tad_run) that
// allocates two temporaries, keeps them, and then asks for more memory than
// any machine has.
void *keptBlocks[2];
void allocateThenFail(void *const *pointers) {
  keptBlocks[0] = _mlir_memref_to_llvm_alloc(3 * 1024);
  keptBlocks[1] = _mlir_memref_to_llvm_alloc(5 * 1024);
  void *never = _mlir_memref_to_llvm_alloc(SIZE_MAX / 2 + 1);
  *static_cast<void **>(pointers[0]) = never; // not reached
}

void allocateAndFree(void *const *pointers) {
  void *p = _mlir_memref_to_llvm_alloc(1024);
  std::memset(p, 0, 1024);
  _mlir_memref_to_llvm_free(p);
}

// A failed allocation ends the call with TAD_ERROR_MEMORY and the size in
// the message; the temporaries the call held go back to the cache (the next
// allocations of their sizes get them), and the next call runs normally.
TEST(AllocCache, FailedAllocationEndsTheCall) {
  tad_function_info info = {"g", nullptr, 0, 0, nullptr, nullptr};
  void *slot = nullptr;
  void *pointers[] = {&slot};
  ASSERT_EQ(__tad_run(&info, allocateThenFail, pointers), TAD_ERROR_MEMORY);
  EXPECT_EQ(slot, nullptr);
  EXPECT_STREQ(tad_last_error(),
               "g: out of memory: cannot allocate 9223372036854775808 bytes "
               "(8589934592.0 GiB) for a temporary");
  std::set<void *> kept(keptBlocks, keptBlocks + 2);
  std::set<void *> again = {_mlir_memref_to_llvm_alloc(3 * 1024),
                            _mlir_memref_to_llvm_alloc(5 * 1024)};
  EXPECT_EQ(again, kept);
  for (void *p : again)
    _mlir_memref_to_llvm_free(p);

  EXPECT_EQ(__tad_run(&info, allocateAndFree, pointers), TAD_OK);
  EXPECT_EQ(__tad_run(&info, allocateThenFail, pointers), TAD_ERROR_MEMORY);
}

} // namespace
