//===- MemrefCopyTest.cpp - memrefCopy for strided memref.copy ------------===//

#include "tad/runtime_internal.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

extern "C" {
// MLIR's UnrankedMemRefType<char>; the descriptor is
// { allocated, aligned, offset, sizes[rank], strides[rank] }.
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};
void memrefCopy(int64_t elemSize, UnrankedMemRef *src, UnrankedMemRef *dst);
}

namespace {

template <int Rank> struct Descriptor {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[Rank];
  int64_t strides[Rank];
};

// A 2x3 window at row 1, column 2 of a 4x6 row-major f32 buffer, copied to
// a contiguous 2x3 buffer.
TEST(MemrefCopy, SubviewToContiguous) {
  std::vector<float> big(24);
  std::iota(big.begin(), big.end(), 0.0f);
  std::vector<float> out(6, -1.0f);
  Descriptor<2> src = {big.data(), big.data(), 1 * 6 + 2, {2, 3}, {6, 1}};
  Descriptor<2> dst = {out.data(), out.data(), 0, {2, 3}, {3, 1}};
  UnrankedMemRef s = {2, &src}, d = {2, &dst};
  memrefCopy(sizeof(float), &s, &d);
  EXPECT_EQ(out, (std::vector<float>{8, 9, 10, 14, 15, 16}));
}

// A transposed (non-unit innermost stride) source, into a window of a
// larger destination.
TEST(MemrefCopy, TransposedIntoSubview) {
  std::vector<double> a = {0, 1, 2, 3, 4, 5}; // 2x3, read as its 3x2 transpose
  std::vector<double> big(12, -1.0);          // 4x3
  Descriptor<2> src = {a.data(), a.data(), 0, {3, 2}, {1, 3}};
  Descriptor<2> dst = {big.data(), big.data(), 1, {3, 2}, {3, 1}};
  UnrankedMemRef s = {2, &src}, d = {2, &dst};
  memrefCopy(sizeof(double), &s, &d);
  EXPECT_EQ(big, (std::vector<double>{-1, 0, 3, -1, 1, 4, -1, 2, 5, -1, -1,
                                      -1}));
}

TEST(MemrefCopy, ThreeDimensions) {
  std::vector<int32_t> a(2 * 3 * 4);
  std::iota(a.begin(), a.end(), 0);
  std::vector<int32_t> out(2 * 3 * 2, -1);
  // Every other element of the innermost dimension.
  Descriptor<3> src = {a.data(), a.data(), 0, {2, 3, 2}, {12, 4, 2}};
  Descriptor<3> dst = {out.data(), out.data(), 0, {2, 3, 2}, {6, 2, 1}};
  UnrankedMemRef s = {3, &src}, d = {3, &dst};
  memrefCopy(sizeof(int32_t), &s, &d);
  EXPECT_EQ(out, (std::vector<int32_t>{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20,
                                       22}));
}

TEST(MemrefCopy, Scalar) {
  int64_t a[2] = {5, 7}, b = 0;
  Descriptor<1> src = {a, a, 1, {0}, {0}}; // only the header is read
  Descriptor<1> dst = {&b, &b, 0, {0}, {0}};
  UnrankedMemRef s = {0, &src}, d = {0, &dst};
  memrefCopy(sizeof(int64_t), &s, &d);
  EXPECT_EQ(b, 7);
}

TEST(MemrefCopy, EmptyCopiesNothing) {
  float a[1] = {1}, b[1] = {2};
  Descriptor<2> src = {a, a, 0, {0, 5}, {5, 1}};
  Descriptor<2> dst = {b, b, 0, {0, 5}, {5, 1}};
  UnrankedMemRef s = {2, &src}, d = {2, &dst};
  memrefCopy(sizeof(float), &s, &d);
  EXPECT_EQ(b[0], 2);
}

} // namespace
