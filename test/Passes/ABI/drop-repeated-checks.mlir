// RUN: tad-opt %s --tad-drop-repeated-checks | FileCheck %s

// A run-time check (an scf.if whose branch only calls a __tad_fail_*
// function) of a condition that an earlier check in the block tested is
// dropped, and so is one of the constant false; other branches stay.

func.func private @__tad_fail_shape(i64, i64, i64, i64, memref<96xi8>)
func.func private @log(i64)
memref.global "private" constant @site : memref<96xi8> = dense<0>

// CHECK-LABEL: func.func @repeated
// CHECK:         scf.if %[[BAD:.*]] {
// CHECK:           func.call @__tad_fail_shape
// CHECK:         arith.addi
// CHECK-NOT:     scf.if %[[BAD]] {
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      func.call @log
// CHECK:         scf.if %[[OTHER:.*]] {
// CHECK:           func.call @__tad_fail_shape
// CHECK-NOT:     scf.if
// CHECK:         return
func.func @repeated(%a: i64, %b: i64, %c: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %false = arith.constant false
  %bad = arith.cmpi ne, %a, %b : i64
  scf.if %bad {
    %s = memref.get_global @site : memref<96xi8>
    func.call @__tad_fail_shape(%a, %b, %c0, %c0, %s) : (i64, i64, i64, i64, memref<96xi8>) -> ()
  }
  %sum = arith.addi %a, %b : i64
  scf.if %bad {
    %s = memref.get_global @site : memref<96xi8>
    func.call @__tad_fail_shape(%a, %b, %c0, %c0, %s) : (i64, i64, i64, i64, memref<96xi8>) -> ()
  }
  // Not a check: it does more than fail.
  scf.if %bad {
    func.call @log(%a) : (i64) -> ()
  }
  %other = arith.cmpi ne, %a, %c : i64
  scf.if %other {
    %s = memref.get_global @site : memref<96xi8>
    func.call @__tad_fail_shape(%a, %c, %c0, %c0, %s) : (i64, i64, i64, i64, memref<96xi8>) -> ()
  }
  scf.if %false {
    %s = memref.get_global @site : memref<96xi8>
    func.call @__tad_fail_shape(%a, %c, %c0, %c0, %s) : (i64, i64, i64, i64, memref<96xi8>) -> ()
  }
  return %sum : i64
}
