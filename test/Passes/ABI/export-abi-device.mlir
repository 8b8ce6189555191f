// RUN: tad-opt %s --tad-export-abi=device=cuda | FileCheck %s
// RUN: tad-opt %s --tad-export-abi=device=cuda | FileCheck %s --check-prefix=DECL
// RUN: tad-opt %s --tad-export-abi=device=emulated | FileCheck %s --check-prefix=EMU

// GPU entry points: the device boundary check (device tensors allowed), then
// the device runtime stages every tensor into `device[]`, the implementation
// runs on those pointers, and the runtime's exit gives the status.

// CHECK-LABEL: llvm.func @f(
//  CHECK-SAME:   %[[ARGS:.*]]: !llvm.ptr, %[[NARGS:.*]]: i64, %[[RES:.*]]: !llvm.ptr, %[[NRES:.*]]: i64) -> i32
//       CHECK:   %[[INFO:.*]] = llvm.getelementptr inbounds %{{.*}}[0, 0]
//       CHECK:   %[[DEVICE:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
//       CHECK:   %[[STATUS:.*]] = llvm.call @__tad_check_device_call(%[[INFO]], %[[ARGS]], %[[NARGS]], %[[RES]], %[[NRES]])
//       CHECK:   llvm.cond_br %{{.*}}, ^[[BODY:.*]], ^[[FAIL:.*]]
//       CHECK: ^[[BODY]]:
//       CHECK:   %[[ENTERED:.*]] = llvm.call @__tad_cuda_enter(%[[INFO]], %[[ARGS]], %[[RES]], %[[DEVICE]])
//       CHECK:   llvm.cond_br %{{.*}}, ^[[IMPL:.*]], ^[[ENTERFAIL:.*]]
//       CHECK: ^[[FAIL]]:
//       CHECK:   llvm.return %[[STATUS]] : i32
//       CHECK: ^[[IMPL]]:
//       CHECK:   %[[RAN:.*]] = llvm.call @__tad_run(%[[INFO]], %[[PACKED:.*]], %[[DEVICE]])
//       CHECK:   %[[EXIT:.*]] = llvm.call @__tad_cuda_exit(%[[INFO]], %[[ARGS]], %[[RES]], %[[DEVICE]])
//       CHECK:   %[[RANOK:.*]] = llvm.icmp "eq" %[[RAN]], %{{.*}}
//       CHECK:   %[[RESULT:.*]] = llvm.select %[[RANOK]], %[[EXIT]], %[[RAN]]
//       CHECK:   llvm.return %[[RESULT]] : i32
//       CHECK: ^[[ENTERFAIL]]:
//       CHECK:   llvm.return %[[ENTERED]] : i32
// DECL-DAG: llvm.func @__tad_check_device_call(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64) -> i32
// DECL-DAG: llvm.func @__tad_cuda_enter(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
// DECL-DAG: llvm.func @__tad_cuda_exit(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32

// EMU: llvm.call @__tad_check_device_call(
// EMU: llvm.call @__tad_emulated_enter(
// EMU: llvm.call @__tad_emulated_exit(

module {
  llvm.func @f(%x: !llvm.ptr, %out: !llvm.ptr)
      attributes {tad.abi = {args = [tensor<4xf32>], results = [tensor<4xf32>]}} {
    llvm.return
  }
}

