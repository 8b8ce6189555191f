// RUN: tad-opt %s --tad-export-abi --split-input-file --verify-diagnostics \
// RUN:   | FileCheck %s -DABI=%tad_abi_version -DVERSION=%tad_version

// Two functions in the bare-pointer convention (arguments, then results) and
// a private helper. The struct layouts are runtime.h's:
//   tad_tensor_type   {i32 dtype, i32 rank, ptr shape}
//   tad_function_info {ptr name, ptr entry, i32 num_args, i32 num_results,
//                      ptr args, ptr results}
//   tad_module_info   {i32 abi_version, i32 num_functions, ptr functions,
//                      ptr tad_version}
//   tad_tensor        {ptr data, ptr shape, i32 rank, i32 dtype}

// The implementations are renamed, internal, with noalias pointers.
// CHECK-LABEL: llvm.func internal @helper()
// CHECK-LABEL: llvm.func internal @_tad_impl_f(
//  CHECK-SAME:     %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias})
//   CHECK-NOT:     tad.abi
//       CHECK:   llvm.call @helper()
// CHECK-LABEL: llvm.func internal @_tad_impl_g(
//  CHECK-SAME:     %{{.*}}: !llvm.ptr {llvm.noalias})
// The caller of @f now calls the implementation.
// CHECK-LABEL: llvm.func internal @calls_f(%{{.*}}: !llvm.ptr {llvm.nonnull}, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
//       CHECK:   llvm.call @_tad_impl_f(

// CHECK: llvm.func @__tad_check_call(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64) -> i32
// CHECK: llvm.func @__tad_run(!llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32

// Names, shapes and the tad_tensor_type tables: f32 = 0, i64 = 2, bool = 4.
// CHECK: llvm.mlir.global internal constant @__tad_fn0_name("f\00")
// CHECK: llvm.mlir.global internal constant @__tad_fn0_args_0_shape(dense<[4, 8]> : tensor<2xi64>) {{.*}} : !llvm.array<2 x i64>
// CHECK: llvm.mlir.global internal constant @__tad_fn0_args() {{.*}} : !llvm.array<2 x struct<(i32, i32, ptr)>>
// CHECK-DAG:   %[[F32:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-DAG:   %[[RANK2:.*]] = llvm.mlir.constant(2 : i32)
// CHECK-DAG:   %[[SHAPE:.*]] = llvm.mlir.addressof @__tad_fn0_args_0_shape
// CHECK-DAG:   %[[I64:.*]] = llvm.mlir.constant(2 : i32)
// CHECK-DAG:   %[[RANK0:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-DAG:   %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK:     llvm.return
// CHECK: llvm.mlir.global internal constant @__tad_fn0_results_0_shape(dense<3> : tensor<1xi64>)
// CHECK: llvm.mlir.global internal constant @__tad_fn0_results()
// CHECK:   llvm.mlir.constant(4 : i32)
// CHECK: llvm.mlir.global internal constant @__tad_fn1_name("g\00")
// CHECK-NOT: @__tad_fn1_args
// CHECK: llvm.mlir.global internal constant @__tad_fn1_results()

// The function table.
// CHECK: llvm.mlir.global internal constant @__tad_functions() {{.*}} : !llvm.array<2 x struct<(ptr, ptr, i32, i32, ptr, ptr)>>
// CHECK-DAG:   llvm.mlir.addressof @__tad_fn0_name
// CHECK-DAG:   llvm.mlir.addressof @f :
// CHECK-DAG:   llvm.mlir.addressof @__tad_fn0_args :
// CHECK-DAG:   llvm.mlir.addressof @__tad_fn0_results :
// CHECK-DAG:   llvm.mlir.addressof @g :
// CHECK:     llvm.return

// The entry point: check, then load each tad_tensor's data pointer and call.
// CHECK-LABEL: llvm.func internal @_tad_packed_f(
//  CHECK-SAME:     %[[P:.*]]: !llvm.ptr) {
//       CHECK:   %[[P0P:.*]] = llvm.getelementptr inbounds %[[P]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//       CHECK:   %[[P0:.*]] = llvm.load %[[P0P]]
//       CHECK:   %[[P1P:.*]] = llvm.getelementptr inbounds %[[P]][1]
//       CHECK:   %[[P1:.*]] = llvm.load %[[P1P]]
//       CHECK:   %[[P2P:.*]] = llvm.getelementptr inbounds %[[P]][2]
//       CHECK:   %[[P2:.*]] = llvm.load %[[P2P]]
//       CHECK:   llvm.call @_tad_impl_f(%[[P0]], %[[P1]], %[[P2]])
//       CHECK:   llvm.return
// CHECK-LABEL: llvm.func @f(
//  CHECK-SAME:     %[[ARGS:.*]]: !llvm.ptr, %[[NARGS:.*]]: i64, %[[RES:.*]]: !llvm.ptr, %[[NRES:.*]]: i64) -> i32
//       CHECK:   %[[TABLE:.*]] = llvm.mlir.addressof @__tad_functions
//       CHECK:   %[[INFO:.*]] = llvm.getelementptr inbounds %[[TABLE]][0, 0]
//       CHECK:   %[[THREE:.*]] = llvm.mlir.constant(3 : i64)
//       CHECK:   %[[ARRAY:.*]] = llvm.alloca %[[THREE]] x !llvm.ptr
//       CHECK:   %[[STATUS:.*]] = llvm.call @__tad_check_call(%[[INFO]], %[[ARGS]], %[[NARGS]], %[[RES]], %[[NRES]])
//       CHECK:   %[[ZERO:.*]] = llvm.mlir.constant(0 : i32)
//       CHECK:   %[[OK:.*]] = llvm.icmp "eq" %[[STATUS]], %[[ZERO]]
//       CHECK:   llvm.cond_br %[[OK]], ^[[CALL:.*]], ^[[FAIL:.*]]
//       CHECK: ^[[CALL]]:
//       CHECK:   %[[PACKED:.*]] = llvm.mlir.addressof @_tad_packed_f
//       CHECK:   %[[A0P:.*]] = llvm.getelementptr inbounds %[[ARGS]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr, i32, i32)>
//       CHECK:   %[[A0:.*]] = llvm.load %[[A0P]] : !llvm.ptr -> !llvm.ptr
//       CHECK:   %[[S0:.*]] = llvm.getelementptr inbounds %[[ARRAY]][0]
//       CHECK:   llvm.store %[[A0]], %[[S0]]
//       CHECK:   %[[A1P:.*]] = llvm.getelementptr inbounds %[[ARGS]][1, 0]
//       CHECK:   %[[A1:.*]] = llvm.load %[[A1P]]
//       CHECK:   %[[S1:.*]] = llvm.getelementptr inbounds %[[ARRAY]][1]
//       CHECK:   llvm.store %[[A1]], %[[S1]]
//       CHECK:   %[[R0P:.*]] = llvm.getelementptr inbounds %[[RES]][0, 0]
//       CHECK:   %[[R0:.*]] = llvm.load %[[R0P]]
//       CHECK:   %[[S2:.*]] = llvm.getelementptr inbounds %[[ARRAY]][2]
//       CHECK:   llvm.store %[[R0]], %[[S2]]
//       CHECK:   %[[RAN:.*]] = llvm.call @__tad_run(%[[INFO]], %[[PACKED]], %[[ARRAY]])
//       CHECK:   llvm.return %[[RAN]] : i32
//       CHECK: ^[[FAIL]]:
//       CHECK:   llvm.return %[[STATUS]] : i32
// CHECK-LABEL: llvm.func @g(
//       CHECK:   llvm.getelementptr inbounds %{{.*}}[0, 1]

// The module table: hidden, this ABI version, two functions, and the tad
// release that wrote it.
// CHECK: llvm.mlir.global internal constant @__tad_version("[[VERSION]]\00")
// CHECK: llvm.mlir.global external hidden constant @__tad_module() {{.*}}dso_local{{.*}} : !llvm.struct<(i32, i32, ptr, ptr)>
// CHECK:   llvm.mlir.constant([[ABI]] : i32)
// CHECK:   llvm.mlir.constant(2 : i32)
// CHECK:   llvm.mlir.addressof @__tad_functions
// CHECK:   llvm.mlir.addressof @__tad_version

module {
  llvm.func @helper() {
    llvm.return
  }
  llvm.func @f(%x: !llvm.ptr, %n: !llvm.ptr, %out: !llvm.ptr)
      attributes {tad.abi = {args = [tensor<4x8xf32>, tensor<i64>], results = [tensor<3xi1>]}} {
    llvm.call @helper() : () -> ()
    llvm.return
  }
  llvm.func @g(%out: !llvm.ptr)
      attributes {tad.abi = {args = [], results = [tensor<2xf64>]}} {
    llvm.return
  }
  // tad's argument attributes are dropped, LLVM's kept.
  llvm.func @calls_f(%x: !llvm.ptr {tad.nondiff, llvm.nonnull}, %n: !llvm.ptr, %out: !llvm.ptr) {
    llvm.call @f(%x, %n, %out) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
    llvm.return
  }
  llvm.func @malloc(i64) -> !llvm.ptr
}

// -----

// A module without exported functions still has its (empty) table.
// CHECK:      // -----
// CHECK-NEXT: module {
// CHECK:        llvm.mlir.global external hidden constant @__tad_module()
// CHECK:          llvm.mlir.constant([[ABI]] : i32)
// CHECK:          llvm.mlir.constant(0 : i32)
// CHECK:          llvm.mlir.zero : !llvm.ptr
// CHECK:          llvm.mlir.addressof @__tad_version
module {
}

// -----

// expected-error @+1 {{function 'f' has type '!llvm.func<i32 (ptr)>'; expected the bare-pointer convention with 2 pointers (arguments, then results) and no return value}}
llvm.func @f(%x: !llvm.ptr) -> i32 attributes {tad.abi = {args = [tensor<4xf32>], results = [tensor<4xf32>]}} {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}

// -----

// expected-error @+1 {{malformed 'tad.abi' attribute: expected {args = [...], results = [...]}, got {args = [tensor<4xf32>]}}}
llvm.func @f(%x: !llvm.ptr) attributes {tad.abi = {args = [tensor<4xf32>]}} {
  llvm.return
}

// -----

// expected-error @+1 {{malformed 'tad.abi' attribute: tensor<?xf32> is not a static tensor type with a tad dtype}}
llvm.func @f(%x: !llvm.ptr) attributes {tad.abi = {args = [tensor<?xf32>], results = []}} {
  llvm.return
}

// -----

// expected-error @+1 {{function 'f' has a 'tad.abi' signature but no body}}
llvm.func @f(!llvm.ptr) attributes {tad.abi = {args = [tensor<4xf32>], results = []}}

// -----

// expected-error @+1 {{symbol '_tad_impl_f' clashes with the implementation of 'f'}}
llvm.func @_tad_impl_f() {
  llvm.return
}
llvm.func @f(%x: !llvm.ptr) attributes {tad.abi = {args = [tensor<4xf32>], results = []}} {
  llvm.return
}

// -----

// expected-error @+1 {{symbol '__tad_module' is reserved for tad-export-abi (did it run twice?)}}
llvm.mlir.global external constant @__tad_module(0 : i32) : i32

// -----

// expected-error @+1 {{'__tad_check_call' has type '!llvm.func<void ()>', expected '!llvm.func<i32 (ptr, ptr, i64, ptr, i64)>'}}
llvm.func @__tad_check_call()

// -----

// expected-error @+1 {{symbol '_tad_packed_f' clashes with the implementation of 'f'}}
llvm.func @_tad_packed_f() {
  llvm.return
}
llvm.func @f(%x: !llvm.ptr) attributes {tad.abi = {args = [tensor<4xf32>], results = []}} {
  llvm.return
}

// -----

// expected-error @+1 {{'__tad_run' has type '!llvm.func<void ()>', expected '!llvm.func<i32 (ptr, ptr, ptr)>'}}
llvm.func @__tad_run() {
  llvm.return
}
llvm.func @f(%x: !llvm.ptr) attributes {tad.abi = {args = [tensor<4xf32>], results = []}} {
  llvm.return
}
