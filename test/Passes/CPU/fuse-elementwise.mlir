// RUN: tad-opt %s --tad-fuse-elementwise | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// An elementwise producer of a matmul operand (a ReLU) stays a separate
// generic, and the matmul stays linalg.matmul (upstream's
// linalg-fuse-elementwise-ops would generalize it and fuse the ReLU in).
// The elementwise consumer of the matmul is not fused into it either.
// CHECK-LABEL: func.func @relu_matmul(
//       CHECK:   %[[R:.*]] = linalg.generic
//       CHECK:     arith.maximumf
//       CHECK:   %[[M:.*]] = linalg.matmul ins(%[[R]], %{{.*}} : tensor<16x32xf32>, tensor<32x8xf32>)
//       CHECK:   linalg.generic {{.*}} ins(%[[M]]
func.func @relu_matmul(%x: tensor<16x32xf32>, %w: tensor<32x8xf32>, %b: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<16x32xf32>
  %e2 = tensor.empty() : tensor<16x8xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %mm = linalg.matmul ins(%relu, %w : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  %add = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e2 : tensor<16x8xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %add : tensor<16x8xf32>
}

// Elementwise chains and an elementwise producer of a plain reduction
// (sum of squares) still fuse into one generic.
// CHECK-LABEL: func.func @square_sum(
//       CHECK:   linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "reduction"]
//       CHECK:     arith.mulf
//       CHECK:     arith.addf
//   CHECK-NOT:   linalg.generic
func.func @square_sum(%x: tensor<16x32xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<16x32xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<16x32xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %sum : tensor<16xf32>
}

// The direct weight gradient of a convolution (passes/Conversion/TadToLinalg/DirectConvolution.h)
// keeps its operands: the ReLU backward producing its output gradient stays
// a generic of its own (fused, it would run once per kernel tap and hide
// the convolution from tad-vectorize-convolutions).
// CHECK-LABEL: func.func @relu_weight_grad(
//       CHECK:   %[[D:.*]] = linalg.generic
//       CHECK:     arith.select
//       CHECK:   linalg.generic {{.*}} ins(%arg2, %[[D]] : tensor<2x1x6x6xf32>, tensor<2x3x4x4xf32>)
//   CHECK-NOT:     arith.select
func.func @relu_weight_grad(%g: tensor<2x3x4x4xf32>, %y: tensor<2x3x4x4xf32>, %x: tensor<2x1x6x6xf32>) -> tensor<3x1x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x4x4xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g, %y : tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>) outs(%e : tensor<2x3x4x4xf32>) {
  ^bb0(%in: f32, %out_y: f32, %out: f32):
    %pos = arith.cmpf ogt, %out_y, %zero : f32
    %s = arith.select %pos, %in, %zero : f32
    linalg.yield %s : f32
  } -> tensor<2x3x4x4xf32>
  %e1 = tensor.empty() : tensor<3x1x3x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<3x1x3x3xf32>) -> tensor<3x1x3x3xf32>
  %gw = linalg.generic {indexing_maps = [affine_map<(f, c, kh, kw, n, oh, ow) -> (n, c, oh + kh, ow + kw)>, affine_map<(f, c, kh, kw, n, oh, ow) -> (n, f, oh, ow)>, affine_map<(f, c, kh, kw, n, oh, ow) -> (f, c, kh, kw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %d : tensor<2x1x6x6xf32>, tensor<2x3x4x4xf32>) outs(%init : tensor<3x1x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x1x3x3xf32>
  return %gw : tensor<3x1x3x3xf32>
}

// A producer with several users fuses into an all-parallel consumer as one
// multi-output op that also returns the producer's value: SGD on the weight
// and the bias of y = tanh(x * w + b) computes the shared gradient term
// once, and a loss reduction before the updates (moved after the fused op)
// reads the forward value it keeps. Nothing is written twice.
// CHECK-LABEL: func.func @sgd_step(
//       CHECK:   %[[F:.*]]:3 = linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel"]
//  CHECK-SAME:     ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
//       CHECK:     math.tanh
//   CHECK-NOT:     math.tanh
//       CHECK:   %[[L:.*]] = linalg.generic
//  CHECK-SAME:     iterator_types = ["reduction"]
//  CHECK-SAME:     ins(%[[F]]#{{.}} : tensor<64xf32>)
//   CHECK-NOT:   linalg.generic
//       CHECK:   return %[[L]], %[[F]]#{{.}}, %[[F]]#{{.}}
#v = affine_map<(d0) -> (d0)>
#s = affine_map<(d0) -> ()>
func.func @sgd_step(%x: tensor<64xf32>, %w: tensor<64xf32>, %b: tensor<64xf32>)
    -> (tensor<f32>, tensor<64xf32>, tensor<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %lr = arith.constant -0.001 : f32
  %e = tensor.empty() : tensor<64xf32>
  %t = linalg.generic {indexing_maps = [#v, #v, #v, #v], iterator_types = ["parallel"]}
      ins(%x, %w, %b : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%xi: f32, %wi: f32, %bi: f32, %out: f32):
    %p = arith.mulf %xi, %wi : f32
    %z = arith.addf %p, %bi : f32
    %y = math.tanh %z : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  %e0 = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#v, #s], iterator_types = ["reduction"]}
      ins(%t : tensor<64xf32>) outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %g = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%t : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%ti: f32, %out: f32):
    %sq = arith.mulf %ti, %ti : f32
    %d = arith.subf %one, %sq : f32
    linalg.yield %d : f32
  } -> tensor<64xf32>
  %nw = linalg.generic {indexing_maps = [#v, #v, #v, #v], iterator_types = ["parallel"]}
      ins(%w, %g, %x : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%wi: f32, %gi: f32, %xi: f32, %out: f32):
    %dw = arith.mulf %gi, %xi : f32
    %step = arith.mulf %dw, %lr : f32
    %n = arith.addf %wi, %step : f32
    linalg.yield %n : f32
  } -> tensor<64xf32>
  %nb = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]}
      ins(%b, %g : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%bi: f32, %gi: f32, %out: f32):
    %step = arith.mulf %gi, %lr : f32
    %n = arith.addf %bi, %step : f32
    linalg.yield %n : f32
  } -> tensor<64xf32>
  return %loss, %nw, %nb : tensor<f32>, tensor<64xf32>, tensor<64xf32>
}

// A reduction with a parallel loop left (batch norm's per-channel sums)
// takes a producer with several users too: the fused op keeps each of the
// producer's values once (its map is a permutation of all the loops), and
// its other user reads them instead of the producer writing them and the
// sum reading them back. (The full reduction of @sgd_step stays apart: it
// would run the fused op on one thread.)
// CHECK-LABEL: func.func @channel_sums(
//       CHECK:   %[[F:.*]]:2 = linalg.generic
//  CHECK-SAME:     iterator_types = ["reduction", "parallel"]
//  CHECK-SAME:     ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8xf32>)
//       CHECK:     %[[D:.*]] = arith.subf
//       CHECK:     %[[S:.*]] = arith.addf
//       CHECK:     linalg.yield %[[D]], %[[S]]
//       CHECK:   linalg.generic {{.*}} ins(%[[F]]#0, %[[F]]#1 : tensor<4x8xf32>, tensor<8xf32>)
//   CHECK-NOT:   arith.subf
#chan = affine_map<(d0, d1) -> (d1)>
func.func @channel_sums(%x: tensor<4x8xf32>, %m: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%xi: f32, %mi: f32, %out: f32):
    %d = arith.subf %xi, %mi : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #chan], iterator_types = ["reduction", "parallel"]}
      ins(%t : tensor<4x8xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %g = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %sum : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%ti: f32, %si: f32, %out: f32):
    %q = arith.mulf %ti, %si : f32
    linalg.yield %q : f32
  } -> tensor<4x8xf32>
  return %sum, %g : tensor<8xf32>, tensor<4x8xf32>
}

// Not as multi-output ops: a consumer that broadcasts the producer (it would
// compute each value once per row) and a consumer whose result is inserted
// into a larger tensor (empty-tensor elimination writes it in place there).
// CHECK-LABEL: func.func @multi_use_kept(
//       CHECK:   %[[T:.*]] = linalg.generic
//       CHECK:     math.tanh
//       CHECK:   linalg.generic {{.*}} ins(%[[T]] : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
//       CHECK:   linalg.generic {{.*}} ins(%[[T]] : tensor<8xf32>) outs(%{{.*}} : tensor<8xf32>)
//       CHECK:   tensor.insert_slice
#bcast = affine_map<(d0, d1) -> (d1)>
func.func @multi_use_kept(%x: tensor<8xf32>, %dst: tensor<16xf32>) -> (tensor<4x8xf32>, tensor<16xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %t = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.tanh %in : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %rows = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.addf %in, %in : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%t : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %r = tensor.insert_slice %sq into %dst[0] [8] [1] : tensor<8xf32> into tensor<16xf32>
  return %rows, %r : tensor<4x8xf32>, tensor<16xf32>
}

// The consumer reads a scalar computed after the producer's first other
// user (Adam's bias correction, after the loss): the scalar's op moves up
// with it (and, single-use, fuses in as well), and the fused op still comes
// before the loss reduction.
// CHECK-LABEL: func.func @hoisted_scalar(
//  CHECK-SAME:     %[[X:.*]]: tensor<64xf32>, %[[C:.*]]: tensor<f32>)
//       CHECK:   %[[F:.*]]:2 = linalg.generic {{.*}} ins(%[[X]], %[[C]] : tensor<64xf32>, tensor<f32>)
//       CHECK:     math.tanh
//       CHECK:   linalg.generic {{.*}} iterator_types = ["reduction"]
//  CHECK-SAME:     ins(%[[F]]#0 : tensor<64xf32>)
func.func @hoisted_scalar(%x: tensor<64xf32>, %c: tensor<f32>) -> (tensor<f32>, tensor<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %t = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.tanh %in : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  %e0 = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#v, #s], iterator_types = ["reduction"]}
      ins(%t : tensor<64xf32>) outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<f32>
  %e1 = tensor.empty() : tensor<f32>
  %scale = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%c : tensor<f32>) outs(%e1 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %two : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  %u = linalg.generic {indexing_maps = [#v, #s, #v], iterator_types = ["parallel"]}
      ins(%t, %scale : tensor<64xf32>, tensor<f32>) outs(%e : tensor<64xf32>) {
  ^bb0(%ti: f32, %si: f32, %out: f32):
    %m = arith.mulf %ti, %si : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  return %loss, %u : tensor<f32>, tensor<64xf32>
}

// A producer that accumulates into its init (`out + in`, as col2im does),
// read by its consumer through a broadcast: fused, the accumulated result
// would be kept as a second result and updated once per broadcast
// iteration. They stay apart. (The input gradient of adaptive_avg_pool2d(x,
// 1) followed by a 1x1 convolution was wrong at -O1 and above.)
// CHECK-LABEL: func.func @accumulating_producer_broadcast
// CHECK: %[[ACC:.*]] = linalg.generic
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[ACC]] :
// CHECK: arith.divf
// CHECK-NOT: linalg.generic
#acc_in = affine_map<(d0, d1) -> (d0, d1)>
#acc_bcast = affine_map<(d0, d1, d2) -> (d0, d1)>
#acc_full = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @accumulating_producer_broadcast(%g: tensor<2x8xf64>) -> tensor<2x8x16xf64> {
  %zero = arith.constant 0.0 : f64
  %n = arith.constant 16.0 : f64
  %e = tensor.empty() : tensor<2x8xf64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<2x8xf64>) -> tensor<2x8xf64>
  %acc = linalg.generic {indexing_maps = [#acc_in, #acc_in], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<2x8xf64>) outs(%z : tensor<2x8xf64>) {
  ^bb0(%in: f64, %out: f64):
    %a = arith.addf %out, %in : f64
    linalg.yield %a : f64
  } -> tensor<2x8xf64>
  %e2 = tensor.empty() : tensor<2x8x16xf64>
  %b = linalg.generic {indexing_maps = [#acc_bcast, #acc_full], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%acc : tensor<2x8xf64>) outs(%e2 : tensor<2x8x16xf64>) {
  ^bb0(%in: f64, %out: f64):
    %d = arith.divf %in, %n : f64
    linalg.yield %d : f64
  } -> tensor<2x8x16xf64>
  return %b : tensor<2x8x16xf64>
}
