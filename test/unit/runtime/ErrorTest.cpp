//===- ErrorTest.cpp - tad_last_error, dtype helpers, module table --------===//

#include "tad/runtime_internal.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>

namespace {

TEST(Error, StartsEmpty) {
  std::string seen = "unset";
  std::thread([&] { seen = tad_last_error(); }).join();
  EXPECT_EQ(seen, "");
}

TEST(Error, SetAndClear) {
  __tad_set_error("%s: device error %d", "f", 7);
  EXPECT_STREQ(tad_last_error(), "f: device error 7");
  __tad_clear_error();
  EXPECT_STREQ(tad_last_error(), "");
}

TEST(Error, IsPerThread) {
  __tad_set_error("main thread");
  std::string other;
  std::thread([&] {
    __tad_set_error("other thread");
    other = tad_last_error();
  }).join();
  EXPECT_EQ(other, "other thread");
  EXPECT_STREQ(tad_last_error(), "main thread");
}

TEST(Error, LongMessagesAreTruncated) {
  std::string longText(5000, 'x');
  __tad_set_error("%s", longText.c_str());
  EXPECT_EQ(std::string(tad_last_error()),
            std::string(TAD_ERROR_CAPACITY - 1, 'x'));
}

TEST(Dtype, NamesAndSizes) {
  EXPECT_STREQ(tad_dtype_name(TAD_DTYPE_F32), "f32");
  EXPECT_STREQ(tad_dtype_name(TAD_DTYPE_F64), "f64");
  EXPECT_STREQ(tad_dtype_name(TAD_DTYPE_I64), "i64");
  EXPECT_STREQ(tad_dtype_name(TAD_DTYPE_I32), "i32");
  EXPECT_STREQ(tad_dtype_name(TAD_DTYPE_BOOL), "bool");
  EXPECT_STREQ(tad_dtype_name(TAD_DTYPE_BF16), "bf16");
  EXPECT_STREQ(tad_dtype_name(TAD_DTYPE_F16), "f16");
  EXPECT_STREQ(tad_dtype_name(7), "?");
  EXPECT_STREQ(tad_dtype_name(-1), "?");
  EXPECT_EQ(tad_dtype_size(TAD_DTYPE_F32), 4);
  EXPECT_EQ(tad_dtype_size(TAD_DTYPE_F64), 8);
  EXPECT_EQ(tad_dtype_size(TAD_DTYPE_I64), 8);
  EXPECT_EQ(tad_dtype_size(TAD_DTYPE_I32), 4);
  EXPECT_EQ(tad_dtype_size(TAD_DTYPE_BOOL), 1);
  EXPECT_EQ(tad_dtype_size(TAD_DTYPE_BF16), 2);
  EXPECT_EQ(tad_dtype_size(TAD_DTYPE_F16), 2);
  EXPECT_EQ(tad_dtype_size(7), 0);
  EXPECT_EQ(__tad_dtype_name(7), nullptr);
}

TEST(Module, InfoIsTheTable) {
  const tad_module_table *info = tad_module_info();
  ASSERT_EQ(info, &__tad_module);
  EXPECT_EQ(info->abi_version, TAD_ABI_VERSION);
  EXPECT_STREQ(info->tad_version, TAD_VERSION_STRING);
  ASSERT_EQ(info->num_functions, 1);
  EXPECT_STREQ(info->functions[0].name, "identity");
}

} // namespace
