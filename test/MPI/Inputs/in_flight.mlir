// A collective in flight when a run-time check fails: the bucket of %s
// starts right after %s is computed (tad-overlap-collectives moves it above
// the embedding's index check), so a bad index ends the call while the
// communication thread may still reduce into the call's temporaries.
func.func @step(%g: tensor<262144xf64>, %w: tensor<5x3xf64>, %i: tensor<2xi64>)
    -> (tensor<262144xf64>, tensor<2x3xf64>) {
  %s = tad.mul.Tensor %g, %g : (tensor<262144xf64>, tensor<262144xf64>) -> tensor<262144xf64>
  %e = tad.embedding %w, %i : (tensor<5x3xf64>, tensor<2xi64>) -> tensor<2x3xf64>
  %r:2 = tad.all_reduce %s, %e {first_bucket_bytes = 8}
      : (tensor<262144xf64>, tensor<2x3xf64>) -> (tensor<262144xf64>, tensor<2x3xf64>)
  return %r#0, %r#1 : tensor<262144xf64>, tensor<2x3xf64>
}
