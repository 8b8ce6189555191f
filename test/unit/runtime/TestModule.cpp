//===- TestModule.cpp - the module table the runtime archive refers to ----===//
//
// A generated object defines __tad_module; the test binary stands in for it
// with one function, so that tad_module_info() links and can be checked.
//
//===----------------------------------------------------------------------===//

#include "tad/runtime_internal.h"

namespace {
const int64_t kShape[] = {2, 3};
const tad_tensor_type kTypes[] = {{TAD_DTYPE_F32, 2, kShape}};
const tad_function_info kFunctions[] = {
    {"identity", nullptr, 1, 1, kTypes, kTypes},
};
} // namespace

extern "C" const tad_module_table __tad_module = {
    TAD_ABI_VERSION, 1, kFunctions, TAD_VERSION_STRING};
