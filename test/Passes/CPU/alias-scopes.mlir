// RUN: tad-opt %s --pass-pipeline='builtin.module(llvm.func(tad-alias-scopes))' | FileCheck %s

// Accesses through each noalias argument get its scope and the other
// noalias arguments' scopes as noalias_scopes; an access through a pointer
// loaded from memory or through a plain argument gets nothing.
// CHECK-DAG: #[[DOMAIN:.*]] = #llvm.alias_scope_domain<{{.*}}description = "kernel">
// CHECK-DAG: #[[A:.*]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOMAIN]]>
// CHECK-DAG: #[[B:.*]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOMAIN]]>
// CHECK-DAG: #[[C:.*]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOMAIN]]>
// CHECK-LABEL: llvm.func @kernel(
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[A]]], noalias_scopes = [#[[B]], #[[C]]]}
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[B]]], noalias_scopes = [#[[A]], #[[C]]]}
// CHECK: llvm.load %arg2 {alias_scopes = [#[[C]]], noalias_scopes = [#[[A]], #[[B]]]} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: llvm.store %{{.*}}, %arg3 : f32, !llvm.ptr
llvm.func @kernel(%a: !llvm.ptr {llvm.noalias}, %b: !llvm.ptr {llvm.noalias},
                  %c: !llvm.ptr {llvm.noalias}, %d: !llvm.ptr, %i: i64) {
  %pa = llvm.getelementptr %a[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %pa : !llvm.ptr -> f32
  %pb = llvm.getelementptr %b[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %pb2 = llvm.getelementptr %pb[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %v, %pb2 : f32, !llvm.ptr
  %p = llvm.load %c : !llvm.ptr -> !llvm.ptr
  %w = llvm.load %p : !llvm.ptr -> f32
  llvm.store %w, %d : f32, !llvm.ptr
  llvm.return
}

// Fewer than two noalias arguments: nothing to say.
// CHECK-LABEL: llvm.func @single(
// CHECK-NOT: alias_scopes
llvm.func @single(%a: !llvm.ptr {llvm.noalias}, %b: !llvm.ptr) {
  %v = llvm.load %a : !llvm.ptr -> f32
  llvm.store %v, %b : f32, !llvm.ptr
  llvm.return
}
