// bf16 and f16 arguments and results at the C ABI (half-precision.test,
// half_precision.py, call_half.c): each op is computed in f32 and rounded
// once to the argument's type (tad-widen-low-precision).
func.func @chain(%x: tensor<4x8xbf16>, %w: tensor<8x3xbf16>, %b: tensor<3xbf16>) -> tensor<4x3xbf16> {
  %0 = tad.mm %x, %w : (tensor<4x8xbf16>, tensor<8x3xbf16>) -> tensor<4x3xbf16>
  %1 = tad.add.Tensor %0, %b : (tensor<4x3xbf16>, tensor<3xbf16>) -> tensor<4x3xbf16>
  %2 = tad.tanh %1 : tensor<4x3xbf16>
  return %2 : tensor<4x3xbf16>
}

func.func @muladd(%x: tensor<6xbf16>, %y: tensor<6xbf16>, %z: tensor<6xbf16>) -> tensor<6xbf16> {
  %0 = tad.mul.Tensor %x, %y : (tensor<6xbf16>, tensor<6xbf16>) -> tensor<6xbf16>
  %1 = tad.add.Tensor %0, %z : (tensor<6xbf16>, tensor<6xbf16>) -> tensor<6xbf16>
  return %1 : tensor<6xbf16>
}

func.func @widen(%x: tensor<4xbf16>) -> tensor<4xf32> {
  %0 = tad._to_copy %x {dtype = f32} : (tensor<4xbf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @narrow(%x: tensor<8xf32>) -> tensor<8xbf16> {
  %0 = tad._to_copy %x {dtype = bf16} : (tensor<8xf32>) -> tensor<8xbf16>
  return %0 : tensor<8xbf16>
}

func.func @half(%a: tensor<5xf16>, %b: tensor<5xf16>) -> (tensor<5xf16>, tensor<5xf32>) {
  %0 = tad.mul.Tensor %a, %b : (tensor<5xf16>, tensor<5xf16>) -> tensor<5xf16>
  %1 = tad.exp %0 : tensor<5xf16>
  %2 = tad._to_copy %1 {dtype = f32} : (tensor<5xf16>) -> tensor<5xf32>
  return %1, %2 : tensor<5xf16>, tensor<5xf32>
}

func.func @mixed(%a: tensor<3xbf16>, %h: tensor<3xf16>) -> tensor<3xf16> {
  %0 = tad._to_copy %a {dtype = f16} : (tensor<3xbf16>) -> tensor<3xf16>
  %1 = tad.add.Tensor %0, %h : (tensor<3xf16>, tensor<3xf16>) -> tensor<3xf16>
  return %1 : tensor<3xf16>
}
