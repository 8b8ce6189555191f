//===- CheckCallTest.cpp - __tad_check_call, every error path -------------===//
//
// The signature under test is
//   f(f32[2, 3], f64[4]) -> (f32[2, 3], i64[])
// and each test breaks one thing in an otherwise valid call.
//
//===----------------------------------------------------------------------===//

#include "tad/runtime_internal.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

class CheckCall : public ::testing::Test {
protected:
  const int64_t shape23[2] = {2, 3};
  const int64_t shape4[1] = {4};
  const tad_tensor_type argTypes[2] = {{TAD_DTYPE_F32, 2, shape23},
                                       {TAD_DTYPE_F64, 1, shape4}};
  const tad_tensor_type resultTypes[2] = {{TAD_DTYPE_F32, 2, shape23},
                                          {TAD_DTYPE_I64, 0, nullptr}};
  tad_function_info fn = {"f", nullptr, 2, 2, argTypes, resultTypes};

  float x[6] = {};
  double v[4] = {};
  float y[6] = {};
  int64_t s = 0;
  int64_t xShape[2] = {2, 3};
  int64_t vShape[1] = {4};
  int64_t yShape[2] = {2, 3};
  // One spare argument, for calls with too many.
  tad_tensor args[3] = {{x, xShape, 2, TAD_DTYPE_F32},
                        {v, vShape, 1, TAD_DTYPE_F64},
                        {x, xShape, 2, TAD_DTYPE_F32}};
  tad_tensor results[3] = {{y, yShape, 2, TAD_DTYPE_F32},
                           {&s, nullptr, 0, TAD_DTYPE_I64},
                           {&s, nullptr, 0, TAD_DTYPE_I64}};

  int32_t call(int64_t numArgs = 2, int64_t numResults = 2) {
    return __tad_check_call(&fn, args, numArgs, results, numResults);
  }

  void SetUp() override { __tad_set_error("stale message"); }
};

#define EXPECT_TAD_ERROR(expr, status, message)                                \
  do {                                                                         \
    EXPECT_EQ((expr), (status));                                               \
    EXPECT_STREQ(tad_last_error(), (message));                                 \
  } while (0)

TEST_F(CheckCall, ValidCallSucceedsAndClearsTheError) {
  EXPECT_EQ(call(), TAD_OK);
  EXPECT_STREQ(tad_last_error(), "");
}

TEST_F(CheckCall, NullFunctionInfo) {
  EXPECT_TAD_ERROR(__tad_check_call(nullptr, args, 2, results, 2),
                   TAD_ERROR_NULL, "tad: call without a function signature");
}

//===--------------------------------------------------------------------===//
// Counts and arrays
//===--------------------------------------------------------------------===//

TEST_F(CheckCall, TooManyArguments) {
  EXPECT_TAD_ERROR(call(3, 2), TAD_ERROR_ARG_COUNT,
                   "f: expected 2 arguments, got 3");
}

TEST_F(CheckCall, TooFewArguments) {
  EXPECT_TAD_ERROR(call(0, 2), TAD_ERROR_ARG_COUNT,
                   "f: expected 2 arguments, got 0");
}

TEST_F(CheckCall, NegativeArgumentCount) {
  EXPECT_TAD_ERROR(call(-1, 2), TAD_ERROR_ARG_COUNT,
                   "f: expected 2 arguments, got -1");
}

TEST_F(CheckCall, WrongResultCount) {
  EXPECT_TAD_ERROR(call(2, 1), TAD_ERROR_ARG_COUNT,
                   "f: expected 2 results, got 1");
  EXPECT_TAD_ERROR(call(2, 3), TAD_ERROR_ARG_COUNT,
                   "f: expected 2 results, got 3");
}

TEST_F(CheckCall, SingularCounts) {
  fn.num_args = 1;
  fn.num_results = 1;
  EXPECT_TAD_ERROR(call(2, 1), TAD_ERROR_ARG_COUNT,
                   "f: expected 1 argument, got 2");
  EXPECT_TAD_ERROR(call(1, 0), TAD_ERROR_ARG_COUNT,
                   "f: expected 1 result, got 0");
}

TEST_F(CheckCall, ArgumentCountIsCheckedBeforeResultCount) {
  EXPECT_TAD_ERROR(call(1, 1), TAD_ERROR_ARG_COUNT,
                   "f: expected 2 arguments, got 1");
}

TEST_F(CheckCall, NullArgumentArray) {
  EXPECT_TAD_ERROR(__tad_check_call(&fn, nullptr, 2, results, 2),
                   TAD_ERROR_NULL,
                   "f: the argument array is null (2 arguments expected)");
}

TEST_F(CheckCall, NullResultArray) {
  EXPECT_TAD_ERROR(__tad_check_call(&fn, args, 2, nullptr, 2), TAD_ERROR_NULL,
                   "f: the result array is null (2 results expected)");
}

TEST_F(CheckCall, NullArraysAreFineWhenEmpty) {
  tad_function_info nullary = {"g", nullptr, 0, 0, nullptr, nullptr};
  EXPECT_EQ(__tad_check_call(&nullary, nullptr, 0, nullptr, 0), TAD_OK);
  EXPECT_STREQ(tad_last_error(), "");
}

TEST_F(CheckCall, UnnamedFunction) {
  fn.name = nullptr;
  EXPECT_TAD_ERROR(call(1, 2), TAD_ERROR_ARG_COUNT,
                   "<unnamed function>: expected 2 arguments, got 1");
}

//===--------------------------------------------------------------------===//
// Null pointers inside tensors
//===--------------------------------------------------------------------===//

TEST_F(CheckCall, NullArgumentData) {
  args[1].data = nullptr;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_NULL,
                   "f: argument 1 has a null data pointer");
}

TEST_F(CheckCall, NullResultData) {
  results[1].data = nullptr;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_NULL,
                   "f: result 1 has a null data pointer");
}

TEST_F(CheckCall, NullArgumentShape) {
  args[0].shape = nullptr;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_NULL,
                   "f: argument 0 has a null shape pointer (rank 2)");
}

TEST_F(CheckCall, NullResultShape) {
  results[0].shape = nullptr;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_NULL,
                   "f: result 0 has a null shape pointer (rank 2)");
}

TEST_F(CheckCall, ScalarMayHaveANullShape) {
  int64_t one = 1;
  results[1].shape = &one; // ignored at rank 0
  EXPECT_EQ(call(), TAD_OK);
  results[1].shape = nullptr;
  EXPECT_EQ(call(), TAD_OK);
}

TEST_F(CheckCall, EmptyTensorMayHaveNullData) {
  const int64_t emptyShape[2] = {0, 3};
  const tad_tensor_type emptyType = {TAD_DTYPE_F32, 2, emptyShape};
  int64_t actual[2] = {0, 3};
  tad_tensor empty = {nullptr, actual, 2, TAD_DTYPE_F32};
  tad_function_info g = {"g", nullptr, 1, 0, &emptyType, nullptr};
  EXPECT_EQ(__tad_check_call(&g, &empty, 1, nullptr, 0), TAD_OK);
}

//===--------------------------------------------------------------------===//
// Dtypes, ranks and dimensions
//===--------------------------------------------------------------------===//

TEST_F(CheckCall, ArgumentDtype) {
  args[0].dtype = TAD_DTYPE_F64;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_DTYPE,
                   "f: argument 0 has dtype f64, expected f32");
}

TEST_F(CheckCall, EveryDtypeName) {
  const char *names[] = {"f32", "f64", "i64", "i32", "bool", "bf16", "f16"};
  for (int32_t dtype = TAD_DTYPE_F32; dtype <= TAD_DTYPE_F16; ++dtype) {
    if (dtype == TAD_DTYPE_F64)
      continue;
    args[1].dtype = dtype;
    EXPECT_TAD_ERROR(call(), TAD_ERROR_DTYPE,
                     ("f: argument 1 has dtype " + std::string(names[dtype]) +
                      ", expected f64")
                         .c_str());
  }
}

TEST_F(CheckCall, UnknownDtype) {
  args[0].dtype = 42;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_DTYPE,
                   "f: argument 0 has unknown dtype 42, expected f32");
}

TEST_F(CheckCall, ResultDtype) {
  results[1].dtype = TAD_DTYPE_I32;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_DTYPE,
                   "f: result 1 has dtype i32, expected i64");
}

TEST_F(CheckCall, ArgumentRank) {
  args[0].rank = 1;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_RANK,
                   "f: argument 0 has rank 1, expected rank 2 (shape [2, 3])");
}

TEST_F(CheckCall, ResultRank) {
  results[1].rank = 1;
  results[1].shape = yShape;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_RANK,
                   "f: result 1 has rank 1, expected rank 0 (shape [])");
}

TEST_F(CheckCall, DtypeIsCheckedBeforeRank) {
  args[0].rank = 3;
  args[0].dtype = TAD_DTYPE_I32;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_DTYPE,
                   "f: argument 0 has dtype i32, expected f32");
}

TEST_F(CheckCall, FirstArgumentDimension) {
  xShape[0] = 3;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_SHAPE,
                   "f: argument 0 has shape [3, 3], expected [2, 3]");
}

TEST_F(CheckCall, SecondArgumentDimension) {
  xShape[1] = 5;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_SHAPE,
                   "f: argument 0 has shape [2, 5], expected [2, 3]");
}

TEST_F(CheckCall, SecondArgument) {
  vShape[0] = 5;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_SHAPE,
                   "f: argument 1 has shape [5], expected [4]");
}

TEST_F(CheckCall, ResultDimensions) {
  yShape[0] = 3;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_SHAPE,
                   "f: result 0 has shape [3, 3], expected [2, 3]");
  yShape[0] = 2;
  yShape[1] = 2;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_SHAPE,
                   "f: result 0 has shape [2, 2], expected [2, 3]");
}

TEST_F(CheckCall, NegativeDimension) {
  xShape[0] = -2;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_SHAPE,
                   "f: argument 0 has shape [-2, 3], expected [2, 3]");
}

TEST_F(CheckCall, DynamicSignatureDimensionAdmitsAnySize) {
  const int64_t dynamic[2] = {-1, 3};
  const tad_tensor_type types[2] = {{TAD_DTYPE_F32, 2, dynamic}, argTypes[1]};
  fn.args = types;
  xShape[0] = 1;
  EXPECT_EQ(call(), TAD_OK);
  xShape[1] = 4;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_SHAPE,
                   "f: argument 0 has shape [1, 4], expected [?, 3]");
}

TEST_F(CheckCall, LongShapesAreAbbreviated) {
  std::vector<int64_t> expected(300, 1000000), actual(300, 1000000);
  actual[299] = 7;
  const tad_tensor_type type = {TAD_DTYPE_F32, 300, expected.data()};
  tad_tensor t = {x, actual.data(), 300, TAD_DTYPE_F32};
  tad_function_info g = {"g", nullptr, 1, 0, &type, nullptr};
  EXPECT_EQ(__tad_check_call(&g, &t, 1, nullptr, 0), TAD_ERROR_SHAPE);
  std::string message = tad_last_error();
  EXPECT_EQ(message.rfind("g: argument 0 has shape [1000000, 1000000, ", 0),
            0u);
  EXPECT_NE(message.find("...], expected [1000000, "), std::string::npos);
  EXPECT_EQ(message.substr(message.size() - 4), "...]");
  EXPECT_LT(message.size(), size_t(TAD_ERROR_CAPACITY));
}

//===--------------------------------------------------------------------===//
// Order: the first problem is reported
//===--------------------------------------------------------------------===//

TEST_F(CheckCall, ArgumentsAreCheckedBeforeResults) {
  results[0].dtype = TAD_DTYPE_F64;
  vShape[0] = 1;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_SHAPE,
                   "f: argument 1 has shape [1], expected [4]");
}

TEST_F(CheckCall, ArgumentsAreCheckedInOrder) {
  args[1].dtype = TAD_DTYPE_F32;
  xShape[1] = 1;
  EXPECT_TAD_ERROR(call(), TAD_ERROR_SHAPE,
                   "f: argument 0 has shape [2, 1], expected [2, 3]");
}

TEST_F(CheckCall, ErrorIsClearedByTheNextGoodCall) {
  xShape[1] = 1;
  EXPECT_EQ(call(), TAD_ERROR_SHAPE);
  xShape[1] = 3;
  EXPECT_EQ(call(), TAD_OK);
  EXPECT_STREQ(tad_last_error(), "");
}

} // namespace
