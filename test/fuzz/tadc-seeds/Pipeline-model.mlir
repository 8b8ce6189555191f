// A small model on plain func/linalg/tensor/arith/math, compiled by
// end-to-end.test and called from Inputs/call_model.c.
#id2 = affine_map<(i, j) -> (i, j)>
#id1 = affine_map<(i) -> (i)>
#rows = affine_map<(i, j) -> (i)>
#scalar = affine_map<(i) -> ()>

// Private: inlined into its callers, not exported.
func.func private @exp_tanh(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    %y = math.exp %t : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// (exp(tanh(x)) @ w, exp(tanh(x)), row sums of exp(tanh(x)) @ w)
func.func @model(%x: tensor<4x8xf32>, %w: tensor<8x3xf32>)
    -> (tensor<4x3xf32>, tensor<4x8xf32>, tensor<4xf32>) {
  %h = call @exp_tanh(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %y = linalg.matmul ins(%h, %w : tensor<4x8xf32>, tensor<8x3xf32>)
                     outs(%acc : tensor<4x3xf32>) -> tensor<4x3xf32>
  %se = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<4x3xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc2: f32):
    %sum = arith.addf %a, %acc2 : f32
    linalg.yield %sum : f32
  } -> tensor<4xf32>
  return %y, %h, %s : tensor<4x3xf32>, tensor<4x8xf32>, tensor<4xf32>
}

// f64 and a rank-0 result: the sum of squares.
func.func @sumsq(%x: tensor<5xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %init = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %r = linalg.generic {indexing_maps = [#id1, #scalar], iterator_types = ["reduction"]}
      ins(%x : tensor<5xf64>) outs(%init : tensor<f64>) {
  ^bb0(%a: f64, %acc: f64):
    %sq = arith.mulf %a, %a : f64
    %sum = arith.addf %sq, %acc : f64
    linalg.yield %sum : f64
  } -> tensor<f64>
  return %r : tensor<f64>
}

// A strided copy (insert_slice into a column range), a constant, an i1
// result and an argument returned as it is.
func.func @pad_cols(%x: tensor<4x2xi32>) -> (tensor<4x3xi32>, tensor<4x2xi1>, tensor<4x2xi32>) {
  %fill = arith.constant dense<7> : tensor<4x3xi32>
  %r = tensor.insert_slice %x into %fill[0, 1] [4, 2] [1, 1]
      : tensor<4x2xi32> into tensor<4x3xi32>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4x2xi1>
  %pos = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x2xi32>) outs(%e : tensor<4x2xi1>) {
  ^bb0(%a: i32, %o: i1):
    %c = arith.cmpi sgt, %a, %zero : i32
    linalg.yield %c : i1
  } -> tensor<4x2xi1>
  return %r, %pos, %x : tensor<4x3xi32>, tensor<4x2xi1>, tensor<4x2xi32>
}

// Temporaries (tanh(x) and its transpose) that must be freed per call.
func.func @gram(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %h = call @tanh(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %te = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%h : tensor<4x8xf32>) outs(%te : tensor<8x4xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %g = linalg.matmul ins(%h, %t : tensor<4x8xf32>, tensor<8x4xf32>)
                     outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %g : tensor<4x4xf32>
}

func.func private @tanh(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
