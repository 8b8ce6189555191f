// RUN: tadc %s --vjp=f --emit=llvm -o - | FileCheck %s --implicit-check-not=llvm.masked.scatter

// The max-pooling backward of a dynamic batch (one sample block of the
// tad-split-dynamic-batch loop: [16, 5, 2, 5, 2] outputs per sample) stores
// its short rows with plain stores: LLVM would otherwise unroll the 5x2
// inner loops and vectorize the channel loop around them with masked
// gathers and scatters (3.6x slower on Zen 5). Hosts without AVX-512 have
// no scatters at all.
// CHECK: define {{.*}}@generic_{{.*}}x16x5x2x5x2_f32
// CHECK: define {{.*}}@f_vjp
func.func @f(%x: tensor<?x16x10x10xf32> {tad.dim_names = ["batch", "", "", ""]}) -> tensor<f32> {
  %0 = tad.relu %x : tensor<?x16x10x10xf32>
  %r, %i = tad.max_pool2d_with_indices %0 {dilation = array<i64: 1, 1>, kernel_size = array<i64: 2, 2>, padding = array<i64: 0, 0>, stride = array<i64>} : (tensor<?x16x10x10xf32>) -> (tensor<?x16x5x5xf32>, tensor<?x16x5x5xi64>)
  %s = tad.sum %r : (tensor<?x16x5x5xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
