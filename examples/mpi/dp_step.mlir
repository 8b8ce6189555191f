// A data-parallel training step written by hand in the tad dialect: linear
// regression (mean squared error) trained by SGD on the ranks of an MPI
// job, each rank with 4 rows of every batch of 8 (2 ranks).
//
// @train_step differentiates the per-rank loss (tadc generates @loss_vjp),
// then averages the loss and the gradients over the ranks with one
// tad.all_reduce (fused into one bucket), so that every rank applies the
// same update; @sync_parameters gives every rank rank 0's parameters.
// Compile with `tadc dp_step.mlir --vjp=loss -o libdp_step.so`; train.c
// runs it under mpirun (docs/distributed.md).

func.func @loss(%x: tensor<4x3xf64> {tad.nondiff}, %y: tensor<4x1xf64> {tad.nondiff},
                %w: tensor<3x1xf64>, %b: tensor<1xf64>) -> tensor<f64> {
  %p = tad.addmm %b, %x, %w : (tensor<1xf64>, tensor<4x3xf64>, tensor<3x1xf64>) -> tensor<4x1xf64>
  %l = tad.mse_loss %p, %y : (tensor<4x1xf64>, tensor<4x1xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

func.func private @loss_vjp(tensor<4x3xf64>, tensor<4x1xf64>, tensor<3x1xf64>,
                            tensor<1xf64>, tensor<f64>)
    -> (tensor<f64>, tensor<3x1xf64>, tensor<1xf64>)

// One SGD step (learning rate 0.1) on the mean gradient of all ranks;
// returns the mean loss of all ranks before the step.
func.func @train_step(%x: tensor<4x3xf64> {tad.nondiff}, %y: tensor<4x1xf64> {tad.nondiff},
                      %w: tensor<3x1xf64>, %b: tensor<1xf64>)
    -> (tensor<f64>, tensor<3x1xf64>, tensor<1xf64>) {
  %one = tad.constant dense<1.0> : tensor<f64>
  %l, %gw, %gb = func.call @loss_vjp(%x, %y, %w, %b, %one)
      : (tensor<4x3xf64>, tensor<4x1xf64>, tensor<3x1xf64>, tensor<1xf64>, tensor<f64>)
      -> (tensor<f64>, tensor<3x1xf64>, tensor<1xf64>)
  %ml, %mgw, %mgb = tad.all_reduce %l, %gw, %gb {reduction = "mean"}
      : (tensor<f64>, tensor<3x1xf64>, tensor<1xf64>) -> (tensor<f64>, tensor<3x1xf64>, tensor<1xf64>)
  %nw = tad.add.Tensor %w, %mgw {alpha = -0.1 : f64} : (tensor<3x1xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  %nb = tad.add.Tensor %b, %mgb {alpha = -0.1 : f64} : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
  return %ml, %nw, %nb : tensor<f64>, tensor<3x1xf64>, tensor<1xf64>
}

// Rank 0's parameters on every rank (call before the first step).
func.func @sync_parameters(%w: tensor<3x1xf64>, %b: tensor<1xf64>)
    -> (tensor<3x1xf64>, tensor<1xf64>) {
  %sw, %sb = tad.broadcast_from %w, %b : (tensor<3x1xf64>, tensor<1xf64>) -> (tensor<3x1xf64>, tensor<1xf64>)
  return %sw, %sb : tensor<3x1xf64>, tensor<1xf64>
}
