// RUN: tad-opt %s -split-input-file -verify-diagnostics

// One case per verifier error of the collective ops.

func.func @unknown_reduction(%a: tensor<3xf64>) {
  // expected-error @+1 {{'tad.all_reduce' op reduction must be "sum" or "mean", got "max"}}
  %0 = tad.all_reduce %a {reduction = "max"} : (tensor<3xf64>) -> tensor<3xf64>
  return
}

// -----

func.func @result_type(%a: tensor<3xf64>) {
  // expected-error @+1 {{'tad.all_reduce' op result 0 has type 'tensor<3xf32>', expected its operand's type 'tensor<3xf64>'}}
  %0 = tad.all_reduce %a : (tensor<3xf64>) -> tensor<3xf32>
  return
}

// -----

func.func @result_count(%a: tensor<3xf64>) {
  // expected-error @+1 {{'tad.broadcast_from' op expected as many results as operands, got 2 results for 1 operands}}
  %0:2 = tad.broadcast_from %a : (tensor<3xf64>) -> (tensor<3xf64>, tensor<3xf64>)
  return
}

// -----

func.func @dynamic(%a: tensor<?xf64>) {
  // expected-error @+1 {{'tad.all_reduce' op operand 0 has type 'tensor<?xf64>': collectives need static shapes}}
  %0 = tad.all_reduce %a : (tensor<?xf64>) -> tensor<?xf64>
  return
}

// -----

func.func @bucket_bytes(%a: tensor<3xf64>) {
  // expected-error @+1 {{'tad.all_reduce' op bucket_bytes must be positive, got 0}}
  %0 = tad.all_reduce %a {bucket_bytes = 0} : (tensor<3xf64>) -> tensor<3xf64>
  return
}

// -----

func.func @root(%a: tensor<3xf64>) {
  // expected-error @+1 {{'tad.broadcast_from' op root must be a rank (>= 0), got -1}}
  %0 = tad.broadcast_from %a {root = -1} : (tensor<3xf64>) -> tensor<3xf64>
  return
}

// -----

func.func @integer(%a: tensor<3xi64>) {
  // expected-error @+1 {{'tad.all_reduce' op operand #0 must be variadic of ranked tensor of 32-bit float or 64-bit float or bfloat16 type or 16-bit float values}}
  %0 = tad.all_reduce %a : (tensor<3xi64>) -> tensor<3xi64>
  return
}

// -----

func.func @first_bucket_bytes(%a: tensor<3xf64>) {
  // expected-error @+1 {{'tad.all_reduce' op first_bucket_bytes must be positive, got -1}}
  %0 = tad.all_reduce %a {first_bucket_bytes = -1} : (tensor<3xf64>) -> tensor<3xf64>
  return
}
