// Programs whose temporaries cannot be allocated: `f` needs 4 x 2^32 f32
// (64 GiB), `g` 4 x 2^44 f32 (256 TiB, more than a 47-bit address space
// holds, so no overcommit setting lets it succeed); `ok` needs none.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tad.expand %x {size = array<i64: 4294967296, 4>} : (tensor<4xf32>) -> tensor<4294967296x4xf32>
  %t = tad.t %e : (tensor<4294967296x4xf32>) -> tensor<4x4294967296xf32>
  %x2 = tad.exp %t : tensor<4x4294967296xf32>
  %s = tad.sum.dim_IntList %x2 {dim = array<i64: 1>} : (tensor<4x4294967296xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

func.func @g(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %y = tad.tanh %x : tensor<4xf32>
  %e = tad.expand %y {size = array<i64: 17592186044416, 4>} : (tensor<4xf32>) -> tensor<17592186044416x4xf32>
  %t = tad.t %e : (tensor<17592186044416x4xf32>) -> tensor<4x17592186044416xf32>
  %x2 = tad.exp %t : tensor<4x17592186044416xf32>
  %s = tad.sum.dim_IntList %x2 {dim = array<i64: 1>} : (tensor<4x17592186044416xf32>) -> tensor<4xf32>
  return %y, %s : tensor<4xf32>, tensor<4xf32>
}

func.func @ok(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tad.tanh %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
