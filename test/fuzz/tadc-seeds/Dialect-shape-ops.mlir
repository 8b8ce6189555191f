
// Round trip of the shape ops (dialects/Tad/TadShapeOps.td): defaulted
// attributes are elided, i64 results and operands print as such.

func.func @views(%x: tensor<2x1x3xf32>, %i: tensor<2x3xi64>) -> (tensor<3x2xf32>, tensor<3x2x1xf32>, tensor<2x3xf32>, tensor<3x2xi64>) {
  %0 = tad._unsafe_view %x {size = array<i64: 3, -1>} : (tensor<2x1x3xf32>) -> tensor<3x2xf32>
  %1 = tad.permute %x {dims = array<i64: 2, 0, 1>} : (tensor<2x1x3xf32>) -> tensor<3x2x1xf32>
  %2 = tad.squeeze %x : (tensor<2x1x3xf32>) -> tensor<2x3xf32>
  %3 = tad.permute %i {dims = array<i64: 1, 0>} : (tensor<2x3xi64>) -> tensor<3x2xi64>
  return %0, %1, %2, %3 : tensor<3x2xf32>, tensor<3x2x1xf32>, tensor<2x3xf32>, tensor<3x2xi64>
}

func.func @slices(%x: tensor<7x3xf64>) -> (tensor<3x3xf64>, tensor<7x3xf64>, tensor<7xf64>, tensor<7x3xf64>) {
  %0 = tad.slice.Tensor %x {end = -1 : i64, start = 1 : i64, step = 2 : i64} : (tensor<7x3xf64>) -> tensor<3x3xf64>
  %1 = tad.slice_backward %0 {dim = 0 : i64, end = 6 : i64, input_sizes = array<i64: 7, 3>, start = 1 : i64, step = 2 : i64} : (tensor<3x3xf64>) -> tensor<7x3xf64>
  %2 = tad.select.int %x {dim = 1 : i64, index = -1 : i64} : (tensor<7x3xf64>) -> tensor<7xf64>
  %3 = tad.select_backward %2 {dim = 1 : i64, index = 2 : i64, input_sizes = array<i64: 7, 3>} : (tensor<7xf64>) -> tensor<7x3xf64>
  return %0, %1, %2, %3 : tensor<3x3xf64>, tensor<7x3xf64>, tensor<7xf64>, tensor<7x3xf64>
}

func.func @copies(%x: tensor<2x3xf32>, %i: tensor<2x3xi64>) -> (tensor<2x3xf32>, tensor<2x3xf64>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = tad.clone %x : tensor<2x3xf32>
  %1 = tad._to_copy %x {dtype = f64} : (tensor<2x3xf32>) -> tensor<2x3xf64>
  %2 = tad._to_copy %i {dtype = f32} : (tensor<2x3xi64>) -> tensor<2x3xf32>
  %3 = tad._to_copy %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf64>, tensor<2x3xf32>, tensor<2x3xf32>
}

func.func @joins(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> (tensor<2x4xf32>, tensor<2x2x3xf32>, tensor<2x3xf32>) {
  %0 = tad.cat %a, %b {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %1 = tad.stack %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2x3xf32>
  %2 = tad.cat %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<2x2x3xf32>, tensor<2x3xf32>
}

func.func @splits(%x: tensor<5x2xf32>) -> (tensor<2x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<4x2xf32>, tensor<5xf32>, tensor<5xf32>) {
  %0:3 = tad.split.Tensor %x {split_size = 2 : i64} : (tensor<5x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<1x2xf32>)
  %1:2 = tad.split_with_sizes %x {split_sizes = array<i64: 1, 4>} : (tensor<5x2xf32>) -> (tensor<1x2xf32>, tensor<4x2xf32>)
  %2:2 = tad.unbind.int %x {dim = 1 : i64} : (tensor<5x2xf32>) -> (tensor<5xf32>, tensor<5xf32>)
  return %0#0, %0#2, %1#0, %1#1, %2#0, %2#1 : tensor<2x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<4x2xf32>, tensor<5xf32>, tensor<5xf32>
}

func.func @others(%x: tensor<2x3xf32>) -> (tensor<2x4x3xf32>, tensor<3x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = tad.repeat %x {repeats = array<i64: 2, 2, 1>} : (tensor<2x3xf32>) -> tensor<2x4x3xf32>
  %1 = tad.constant_pad_nd %x {pad = array<i64: 2, -1, 0, 1>, value = 1.500000e+00 : f64} : (tensor<2x3xf32>) -> tensor<3x4xf32>
  %2 = tad.flip %x {dims = array<i64: 0, -1>} : tensor<2x3xf32>
  %3 = tad.tril %x {diagonal = -1 : i64} : tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x4x3xf32>, tensor<3x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}
