// Each --emit stage of tadc on plain func/linalg/math input.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tadc %s --emit=mlir -o - | FileCheck %s --check-prefix=MLIR
// RUN: tadc %s --emit=linalg -o - | FileCheck %s --check-prefix=LINALG
// RUN: tadc %s --emit=llvm-mlir -o - | FileCheck %s --check-prefixes=LLVMMLIR,LLVMMLIR2
// RUN: tad-opt %s --tad-cpu-pipeline | FileCheck %s --check-prefixes=LLVMMLIR,LLVMMLIR2
// RUN: tad-opt %s --tad-cpu-pipeline=opt-level=0 | FileCheck %s --check-prefixes=LLVMMLIR,LLVMMLIR0
// RUN: tadc %s --emit=llvm -O0 -o - | FileCheck %s --check-prefix=LLVM0 -DABI=%tad_abi_version
// RUN: tadc %s --emit=llvm -O2 -o - | FileCheck %s --check-prefix=LLVM2
// RUN: tadc %s --emit=obj -o %t/stages.o
// RUN: readelf -sW %t/stages.o | FileCheck %s --check-prefix=OBJ

// Default output names: the input's stem and the stage's extension.
// RUN: cp %s %t/model.mlir
// RUN: cd %t && tadc model.mlir --emit=linalg && tadc model.mlir --emit=llvm \
// RUN:   && tadc model.mlir --emit=header && tadc model.mlir --emit=obj && tadc model.mlir
// RUN: ls %t | FileCheck %s --check-prefix=NAMES

// MLIR's options: timing of every stage, IR after each pass.
// RUN: tadc %s -o %t/timed.so --mlir-timing 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: tadc %s --emit=llvm-mlir -o /dev/null --mlir-print-ir-after-all 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PRINT

func.func private @act(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.exp %a : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

func.func @predict(%x: tensor<4x8xf32>, %w: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %h = call @act(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %y = linalg.matmul ins(%h, %w : tensor<4x8xf32>, tensor<8x3xf32>)
                     outs(%acc : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// --emit=mlir stops after differentiation: nothing to do here.
// MLIR-LABEL: func.func private @act
// MLIR-LABEL: func.func @predict
//       MLIR:   call @act
//       MLIR:   linalg.matmul

// --emit=linalg: still on tensors, nothing bufferized or inlined yet.
// LINALG-LABEL: func.func private @act
//       LINALG:   math.exp
// LINALG-LABEL: func.func @predict(%{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8x3xf32>) -> tensor<4x3xf32>
//       LINALG:   call @act
//       LINALG:   linalg.matmul {{.*}} -> tensor<4x3xf32>
//   LINALG-NOT:   memref

// --emit=llvm-mlir: one internal implementation (the private function is
// inlined; its result is a temporary from the runtime's caching allocator,
// aligned there, so the pointer used is the one freed before returning),
// from -O2 the kernels it calls (each linalg op one function:
// tad-outline-kernels), its C entry point and the metadata;
// nothing else is left.
//     LLVMMLIR-NOT: func.func
//     LLVMMLIR-NOT: @act
//         LLVMMLIR: llvm.func internal @_tad_impl_predict(%{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias})
// exp: LLVM's intrinsic at -O0/-O1, a polynomial (fma) from -O2
// (tad-approximate-math), inline at -O0, from -O2 in its kernel, whose
// 4x8 loops became one (tad-collapse-dims).
//         LLVMMLIR:   %[[TEMP:.*]] = llvm.call @_mlir_memref_to_llvm_aligned_alloc
//        LLVMMLIR0:   llvm.intr.exp
//        LLVMMLIR2:   llvm.call @generic_32_f32
//         LLVMMLIR:   llvm.call @_mlir_memref_to_llvm_free(%[[TEMP]])
//        LLVMMLIR2: llvm.func internal @generic_32_f32(
//        LLVMMLIR2:   llvm.intr.fma
//         LLVMMLIR: llvm.func @__tad_check_call
//         LLVMMLIR: llvm.mlir.global internal constant @__tad_fn0_name("predict\00")
//         LLVMMLIR: llvm.func @predict(%{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: !llvm.ptr, %{{.*}}: i64) -> i32
//         LLVMMLIR: llvm.mlir.global external hidden constant @__tad_module
//     LLVMMLIR-NOT: memref.
//     LLVMMLIR-NOT: builtin.unrealized_conversion_cast

// --emit=llvm: host triple, the layouts of runtime.h.
//      LLVM0: target triple = "{{x86_64|aarch64}}
//      LLVM0: @__tad_fn0_args = internal constant [2 x { i32, i32, ptr }] [{ i32, i32, ptr } { i32 0, i32 2, ptr @__tad_fn0_args_0_shape }, { i32, i32, ptr } { i32 0, i32 2, ptr @__tad_fn0_args_1_shape }]
//      LLVM0: @__tad_functions = internal constant [1 x { ptr, ptr, i32, i32, ptr, ptr }] [{ ptr, ptr, i32, i32, ptr, ptr } { ptr @__tad_fn0_name, ptr @predict, i32 2, i32 1, ptr @__tad_fn0_args, ptr @__tad_fn0_results }]
//      LLVM0: @__tad_module = hidden constant { i32, i32, ptr, ptr } { i32 [[ABI]], i32 1, ptr @__tad_functions, ptr @__tad_version }
//      LLVM0: define internal void @_tad_impl_predict(ptr noalias %0, ptr noalias %1, ptr noalias %2)
//      LLVM0: call float @llvm.exp.f32
//      LLVM0: define internal void @_tad_packed_predict(ptr %0)
//      LLVM0:   call void @_tad_impl_predict(
//      LLVM0: define i32 @predict(ptr %0, i64 %1, ptr %2, i64 %3)
//      LLVM0:   call i32 @__tad_check_call(ptr @__tad_functions, ptr %0, i64 %1, ptr %2, i64 %3)
//      LLVM0:   call i32 @__tad_run(ptr @__tad_functions, ptr @_tad_packed_predict, ptr

// At -O2 the implementation is inlined into the function that unpacks its
// pointers, which the runtime's __tad_run calls.
//  LLVM2-NOT: define internal void @_tad_impl_predict
//      LLVM2: define internal void @_tad_packed_predict(
//  LLVM2-NOT:   call void @_tad_impl_predict
//      LLVM2: define i32 @predict(
//      LLVM2:   call i32 @__tad_check_call(
//      LLVM2:   call i32 @__tad_run(ptr nonnull @__tad_functions, ptr nonnull @_tad_packed_predict,
//  LLVM2-NOT: define internal void @_tad_impl_predict

// The object: the entry point is global, the metadata table hidden, the
// runtime's check and runner undefined.
//  OBJ-DAG: FUNC    GLOBAL DEFAULT {{.*}} predict
//  OBJ-DAG: OBJECT  GLOBAL HIDDEN {{.*}} __tad_module
//  OBJ-DAG: NOTYPE  GLOBAL DEFAULT UND __tad_check_call
//  OBJ-DAG: NOTYPE  GLOBAL DEFAULT UND __tad_run
//  OBJ-DAG: OBJECT  LOCAL  DEFAULT {{.*}} __tad_functions

//      NAMES: model.h
// NAMES-NEXT: model.linalg.mlir
// NAMES-NEXT: model.ll
// NAMES-NEXT: model.mlir
// NAMES-NEXT: model.o
// NAMES-NEXT: model.so

//     TIMING: Execution time report
//     TIMING: Parse
//     TIMING: TadRecordABIPass
//     TIMING: OneShotBufferizePass
//     TIMING: TadExportABIPass
//     TIMING: LLVM IR translation and opt
//     TIMING: LLVM code generation
//     TIMING: Link

//      PRINT: IR Dump After TadRecordABIPass
//      PRINT:   func.func @predict({{.*}}) -> tensor<4x3xf32> attributes {tad.abi =
//      PRINT: IR Dump After TadExportABIPass
