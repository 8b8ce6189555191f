//===- Passes.td - tad CPU schedule passes -----------------*- tablegen -*-===//
//
// The CPU schedule: fusion and matmul rewrites on tensors, tiling,
// vectorization, outlining and parallel loops on buffers, and the
// rewrites just before and after the lowering to LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef TAD_PASSES_CPU
#define TAD_PASSES_CPU

include "mlir/Pass/PassBase.td"

def TadLowerCopiesPass : Pass<"tad-lower-copies", "::mlir::func::FuncOp"> {
  let summary = "Rewrite strided memref.copy into linalg.copy";
  let description = [{
    Bufferization copies into subviews (`tensor.insert_slice`, `concat`,
    `pad`) with `memref.copy`. The LLVM lowering turns a copy between
    non-contiguous memrefs into a call to `memrefCopy` from MLIR's C runner
    utilities, which tad's shared objects do not link. This pass rewrites
    those copies (and only those: contiguous ones stay a `memcpy`) into
    `linalg.copy`, which lowers to loops.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def TadVectorizeContractionsPass
    : Pass<"tad-vectorize-contractions", "::mlir::func::FuncOp"> {
  let summary = "Tile matmul/batch_matmul into cache and register tiles and "
                "lower them to outer-product FMAs";
  let description = [{
    On buffers (after bufferization). Each `linalg.matmul` and
    `linalg.batch_matmul` (transposed indexing maps included) with static
    shapes is tiled with `scf.for` into cache tiles mc x nc x kc (divisors of
    the dimensions, so that every cache tile is static), then into register
    tiles mr x nr x 1 with k innermost; register loops that do not divide are
    peeled, so every register tile has a static shape. Register tiles are
    vectorized to `vector.contract`; subviews are folded into the transfers,
    the accumulator tile is hoisted out of the k loop (it stays in
    registers), and the contraction becomes `vector.fma` of a broadcast A
    element and a B row. With `parallel`, the outermost cache loop with
    two or more iterations over the batch, m or n dimension of a contraction
    of at least 2^18 multiply-adds becomes an `scf.parallel`. With `pack`,
    the B operand of a plain matmul whose rows are a page (4 KiB; 1 KiB
    with 256-bit vectors) or more apart and whose m is at least 8 cache
    tiles is first copied into nr-wide panels [n/nr][k][nr] (one vector per
    panel row, source rows outermost), from which the register tiles read
    their B rows at consecutive addresses. With fewer rows of A, or a B
    over 8 times L2, all of m becomes one cache tile instead (its A block
    in half of L2) and each kc x nc block of B is copied into panels just
    before the register loops use it, into a buffer of each parallel
    iteration; where that A block would not fit, m keeps its cache tiles,
    the cache loops run n, k, m and each block is copied before the m
    loop. The register tiles read a transposed A's values one scalar
    load each. A
    `linalg.fill` of the output just before the contraction goes: in the
    first step of the k cache loop the register tiles start from the fill
    value instead of loading the output (they partition it and each stores
    its part). A parallel
    contraction whose m and n are a single cache tile each (a convolution's
    weight gradient, 25 x 6 x 50176) has its k split over the cores instead:
    each part, an iteration of an `scf.parallel`, computes a zero-filled
    partial product, and a reduction adds them to the output. The default
    sizes come from the host's vector width and cache sizes
    (docs/performance.md; passes/HostMachine.h says how the model is
    detected and pinned); the options override them.
  }];
  let options = [
    ListOption<"cacheTiles", "cache-tiles", "int64_t",
               "Cache tile sizes mc,nc,kc (default: from the L1/L2 sizes)">,
    ListOption<"registerTile", "register-tile", "int64_t",
               "Register tile mr,nr (default: from the vector width)">,
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "Vector register width in bits (0: the host's)">,
    Option<"vectorRegisters", "vector-registers", "int64_t",
           /*default=*/"0",
           "Architectural vector registers (0: the host's)">,
    Option<"l1Bytes", "l1-bytes", "int64_t", /*default=*/"0",
           "L1 data cache size in bytes (0: the host's)">,
    Option<"l2Bytes", "l2-bytes", "int64_t", /*default=*/"0",
           "L2 cache size in bytes (0: the host's)">,
    Option<"printSchedule", "print-schedule", "bool", /*default=*/"false",
           "Print the machine model and the schedule chosen for each "
           "contraction to stderr">,
    Option<"parallel", "parallel", "bool", /*default=*/"false",
           "Make the outer cache loop of large contractions an scf.parallel "
           "(for convert-scf-to-openmp)">,
    Option<"cores", "cores", "int64_t", /*default=*/"0",
           "Cores to split the k of a parallel contraction with a single m "
           "and n cache tile over (0: the host's)">,
    Option<"pack", "pack", "bool", /*default=*/"true",
           "Copy B of large matmuls with page-strided rows (1 KiB with "
           "256-bit vectors) into register-tile-wide panels first, and a "
           "transposed A with rows 1 KiB apart into cache-tile-wide ones">,
    Option<"amx", "amx", "int64_t", /*default=*/"-1",
           "bf16 x bf16 -> f32 matmuls on AMX tiles: 1 on, 0 off, -1 where "
           "the host has AMX-BF16 (TAD_HOST_AMX pins it too)">,
    Option<"bf16Dot", "bf16-dot", "int64_t", /*default=*/"-1",
           "bf16 x bf16 -> f32 matmuls on AVX512-BF16 dot products where "
           "AMX is not used: 1 on, 0 off, -1 where the host has AVX512-BF16 "
           "and no AMX (TAD_HOST_BF16_DOT pins it too)">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::amx::AMXDialect", "::mlir::x86vector::X86VectorDialect"
  ];
}

def TadVectorizeConvolutionsPass
    : Pass<"tad-vectorize-convolutions", "::mlir::func::FuncOp"> {
  let summary = "Register-blocked direct kernels for convolutions with a "
                "short reduction and their weight gradients";
  let description = [{
    On buffers (after bufferization), for what tad-to-linalg's
    `direct-convolutions` makes (passes/DirectConvolution.h): LeNet's first
    layer reduces over C*KH*KW = 25 products per output, too few for the k
    loop of a matmul kernel, and im2col would copy its input 25 times.
    Both kernels vectorize along the output width (vectors of the host's
    lanes, the last one shorter where the width does not divide).

    A `linalg.conv_2d_nchw_fchw` with unit strides and dilations and static
    shapes: per output row (n, oh) and block of filters, the accumulators
    (filters x row vectors, about half the vector registers) start from the
    output, and for each of the C*KH*KW kernel taps (unrolled) one input row
    vector per accumulator column is loaded and multiplied with the
    broadcast weight of each filter. The (n, oh) rows run on all cores with
    `parallel`.

    The weight gradient generic `gw[f, c, kh, kw] += g[n, f, oh, ow] *
    x[n, c, oh + kh, ow + kw]`: the images are split over the cores
    (`parallel`), each part summing into vector partial sums of its own
    [F, C, KH, KW, lanes]; per image, input channel, kernel row, block of
    filters and output-row vector, accumulators for (filter, kernel column)
    are carried through the output rows with one input vector load per
    kernel column and one gradient load per filter. A final loop reduces
    the partial sums into the output.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "Vector register width in bits (0: the host's)">,
    Option<"vectorRegisters", "vector-registers", "int64_t",
           /*default=*/"0",
           "Architectural vector registers (0: the host's)">,
    Option<"parallel", "parallel", "bool", /*default=*/"false",
           "Run large convolutions on all cores">,
    Option<"cores", "cores", "int64_t", /*default=*/"0",
           "Parts to split a weight gradient's images into (0: the host's "
           "cores)">,
  ];
  let dependentDialects = [
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
    "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
  ];
}

def TadVectorizeTransposesPass
    : Pass<"tad-vectorize-transposes", "::mlir::func::FuncOp"> {
  let summary = "Tile transposes that move the innermost dimension into "
                "square register tiles transposed with vector shuffles";
  let description = [{
    On buffers (after bufferization). A `linalg.transpose` with static shapes
    whose permutation moves the innermost dimension (a matrix transpose, the
    `K^T` of attention, the VJP's `W^T` and `X^T`) is a strided gather when
    left to scalar loops: each element read touches another cache line, and
    power-of-two row lengths make the lines collide in the same cache sets
    (a 512x512 f32 transpose ran at 3.5 GB/s). Here the two dimensions it
    swaps are tiled by one vector's lanes (16x16 for f32 with AVX-512, every
    other dimension by 1; non-dividing tiles are peeled, so every tile is
    static), each tile is read as whole rows, transposed in registers
    (`vector.transpose`, shuffles) and written as whole rows.

    With `parallel`, the outermost tile loop of a transpose of at least
    `min-parallel-elements` elements becomes an `scf.parallel` (its tiles
    write disjoint parts of the output): serial, the forward's `t(W)` of
    the mlp benchmark (784x512 and 512x512) took a third of its forward
    pass while the other core waited.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "Vector register width in bits (0: the host's)">,
    Option<"parallel", "parallel", "bool", /*default=*/"false",
           "Run the tiles of large transposes on all cores">,
    Option<"minParallelElements", "min-parallel-elements", "int64_t",
           /*default=*/"131072",
           "Transposes of fewer elements stay serial">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect", "::mlir::linalg::LinalgDialect"
  ];
}

def TadParallelizeLoopsPass
    : Pass<"tad-parallelize-loops", "::mlir::func::FuncOp"> {
  let summary = "Split large elementwise and reduction ops over the cores";
  let description = [{
    On buffers, after the matmul and transpose schedules. Every other linalg
    op with static shapes and at least `min-work` work (loop iterations times
    an iteration's cost: the scalar ops of its body over two, at least 1;
    elementwise chains, softmax and normalization rows, pooling, im2col,
    strided copies; not fills or matmuls) is
    tiled along its outermost
    parallel dimensions into an `scf.parallel` loop (through `scf.forall`),
    which `convert-scf-to-openmp` runs on all cores: the outermost parallel
    dimension, joined by the next ones while there are fewer than 8 parallel
    iterations (5 iterations on two threads leave one waiting). Each
    iteration keeps the inner dimensions whole, so LLVM still vectorizes
    them. The tile gives about 64 iterations (for load balance with any
    thread count) of at least `min-work-per-tile` work each. Smaller ops
    stay on one thread: an OpenMP fork/join costs a few microseconds.
    An op whose outermost loop is a reduction and that has no parallel
    dimension to share (a loss into a scalar) or one too short to split (a
    column sum over 64 features: one tile of at least 128 columns) is split
    along that loop instead, if its combiner has a neutral element and each
    operand reads the loop as one whole dimension or not at all: about 64
    chunks reduced on the cores into partial results [chunks, output...],
    then a reduction of those into the output. Other such reductions stay
    serial.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t",
           /*default=*/"1 << 17",
           "Work (loop iterations times body ops / 2) below which an op "
           "stays on one thread">,
    Option<"minWorkPerTile", "min-work-per-tile", "int64_t",
           /*default=*/"4096",
           "Work one parallel iteration runs at least">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::linalg::LinalgDialect"
  ];
}

def TadApproximateMathPass : Pass<"tad-approximate-math"> {
  let summary = "Replace f32 tanh, exp, expm1, log, log1p, log2 and erf by "
                "polynomial approximations";
  let description = [{
    Upstream's `math` polynomial approximations (a few ulp in f32): the
    results are plain arith/math.fma/math.floor, which vectorize, where a
    libm call per element does not. f64 (and every other op) is left to
    libm and LLVM's intrinsics.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def TadMathToLibmPass : Pass<"tad-math-to-libm", "::mlir::ModuleOp"> {
  let summary = "Call libm for f32/f64 expm1 and log1p, whose LLVM lowering "
                "loses the digits of small arguments";
  let description = [{
    Upstream's `convert-math-to-llvm` computes `math.expm1` as `exp(x) - 1`
    and `math.log1p` as `log(1 + x)`: expm1(1e-300) becomes 0, log1p(1e-8)
    has a relative error of 1e-8. This pass turns those two ops (f32 and
    f64, scalars and vectors element by element) into calls of libm's
    `expm1[f]`/`log1p[f]` before that lowering. f32 ops in vectorized loops
    are approximated accurately by `tad-approximate-math` before this pass
    runs and are not affected.
  }];
  let dependentDialects = [
    "::mlir::func::FuncDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def TadFuseElementwisePass : Pass<"tad-fuse-elementwise"> {
  let summary = "Fuse elementwise linalg producers into their consumers, "
                "except into contractions; multi-output fusion of shared "
                "producers";
  let description = [{
    `linalg-fuse-elementwise-ops` with a control function: a single-use
    producer is fused into a `linalg.generic` consumer unless the consumer
    is a contraction. Upstream's pass also fuses an elementwise producer
    (a layer norm's scaling, a ReLU) into a consuming `linalg.matmul`, which
    generalizes the matmul, recomputes the producer for every output column
    and leaves nothing for `tad-vectorize-contractions` to schedule.

    A producer with several users (which upstream's patterns would compute
    again inside the consumer) fuses into a consumer that reads it through
    a permutation of all its loops (all-parallel, or a reduction with a
    parallel loop left, such as batch norm's per-channel sums) as one
    multi-output op, which also returns the producer's values to the other
    users; the consumer moves up to the first of them, with the
    side-effect-free ops that compute its other operands. Not for ops that
    read `linalg.index` (tad-collapse-dims would no longer merge their
    loops) or whose values are inserted into larger tensors (empty-tensor
    elimination writes those in place), nor for a producer of more than 16
    ops that the consumer also reads through another operand (that read
    stays, and the producer's body would be copied into the consumer once
    more: along a recurrence the copies compound exponentially).
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::affine::AffineDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def TadAccumulateProductsPass : Pass<"tad-accumulate-products"> {
  let summary = "Add a product to a tensor by accumulating into it";
  let description = [{
    On tensors. `x + A @ B` (an elementwise `linalg.generic` sum of `x` and
    a `linalg.matmul` or `linalg.batch_matmul` into zeros that only the sum
    reads, all of one type) becomes the product with `x` as its init: a
    matmul adds to its init. The reverse sweep of a loop accumulates the
    gradient of every captured weight this way, once per iteration
    (`dW += h^T dz`); as a product into the carried gradient it needs no
    temporary of the weight's size and no extra pass over it, and
    bufferizes in place. The result differs by rounding only (x joins the
    sum first instead of last).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def TadPropagateTransposesPass : Pass<"tad-propagate-transposes"> {
  let summary = "Move matrix transposes past narrowing casts and into products";
  let description = [{
    On tensors, before elementwise fusion. Two rewrites of 2-D
    `linalg.transpose` ops, and `transpose(transpose(x))` -> `x`:
    - an elementwise op that narrows the element (an f32 -> bf16 cast) of
      a transpose only it reads runs before the transpose, which then moves
      half the bytes; a weight transposed for the forward product and cast
      in mixed precision, then transposed back for the backward one, is
      cast once and never transposed;
    - `transpose(f(A @ B))`, for a chain `f` of elementwise ops (possibly
      none) each read only by the next, is `f(B^T @ A^T)` with both
      operands read through swapped indexing maps: the weight gradient of
      `x @ W^T` (`transpose(x^T @ dY)`, rounded to bf16 and back in between
      in mixed precision) is computed in W's layout, with no transposed
      copy of the gradient.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"
  ];
}

def TadOverlapCollectivesPass
    : Pass<"tad-overlap-collectives", "::mlir::func::FuncOp"> {
  let summary = "Start each bucket's collective as soon as its tensors exist";
  let description = [{
    On tensors, after tad-to-linalg and the tensor optimizations. Each call
    `_tad_mpi_start_*` (a bucket of `tad.all_reduce` or
    `tad.broadcast_from`) moves up, with the packing of its bucket and its
    result buffer, to right after the last op computing the bucket's
    tensors, never past another collective (nor a call of a function
    that might hold one), so that every rank runs its collectives in one
    order. It may pass run-time checks: when one fails, the runtime waits
    for the collective in flight before the call ends. Its wait stays where
    the collective was: the runtime's
    communication thread reduces the bucket while the rest of the backward
    pass computes, as PyTorch DDP's gradient buckets.
  }];
}

def TadFoldMatmulTransposesPass : Pass<"tad-fold-matmul-transposes"> {
  let summary = "Read a transposed A operand of a matmul in place";
  let description = [{
    On tensors. A `linalg.matmul` (or `linalg.batch_matmul`, batch dimension
    in place) whose A operand is a `linalg.transpose` reads the transpose's
    input through a permuted indexing map instead; the transpose is erased
    when nothing else uses it. The VJP of `X @ W` computes `X^T @ dY` this
    way without materializing `X^T`. The register tiles read an mr-long
    column of A per k, consecutive in the transposed layout; B transposes
    are left alone (they would turn the nr-wide rows of B into gathers),
    except in bf16 x bf16 -> f32 products where the host has a bf16 kernel
    (AMX or AVX512-BF16): those copy B into k-pair panels in any case, and
    pack a transposed B directly (a 32-bit transpose: a k-pair is one word
    of a row of B^T), so the forward product's `W^T` is never written.
  }];
  let options = [
    Option<"bf16Rhs", "bf16-rhs", "int", /*default=*/"-1",
           "Fold B transposes of bf16 x bf16 -> f32 products: 1, 0, or -1 "
           "where the host machine has a bf16 product kernel (AMX or "
           "AVX512-BF16; TAD_HOST_AMX, TAD_HOST_BF16_DOT)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def TadBlockDynamicRowsPass : Pass<"tad-block-dynamic-rows"> {
  let summary = "Split linalg ops over a dynamic row count into static blocks";
  let description = [{
    On buffers, before `tad-outline-kernels` and
    `tad-vectorize-contractions`, whose kernels and schedules need static
    shapes.

    A `linalg.matmul` whose one dynamic loop dimension is the rows of every
    operand that has it (the rows of A and C under a dynamic batch, or the
    reduction of a weight gradient A^T @ B over it) becomes a loop over
    blocks of `large-block` rows, a loop over blocks of half of that on
    the rest, and so on while above `row-block`, then a loop over blocks
    of `row-block` rows, each a static matmul on subviews (at most one
    block of each size but the largest), and the last, partial block a
    static matmul on zero-padded buffers of `row-block` rows (zero rows add
    nothing to a reduction; the padded output rows are not copied back).
    Where the dynamic dimension is the reduction and a `linalg.fill` of the
    output comes just before, the first block that runs writes the output
    after a copy of the fill (under an `scf.if`: the pair makes one kernel
    whose tiles start from the fill value), and the fill runs alone where
    there are no rows.

    Any other linalg op (elementwise and reduction generics, batch
    matmuls, transposes, fills) whose one dynamic loop dimension is
    dimension 0 of every operand that uses it, every other operand static,
    and whose body does not read that loop index, becomes a loop over
    blocks of as many rows as make `block-work` iterations (at least four,
    rounded up to a power of two),
    a loop over blocks of a quarter as many rows on the rest, and so on
    while a block has at least `block-work` / 16 iterations, each a static
    op on subviews; the rest, if blocks of one row did not take it, is the
    same op on fewer rows than the last block (dynamic: plain loops). Every matmul the schedule sees,
    and most other ops, then have static shapes (docs/dynamic-shapes.md).
  }];
  let options = [
    Option<"rowBlock", "row-block", "int64_t", /*default=*/"8",
           "Rows per small matmul block (and of the zero-padded rest)">,
    Option<"largeBlock", "large-block", "int64_t", /*default=*/"1024",
           "Rows per largest matmul block, then half of it... while "
           "above row-block (0: small blocks only)">,
    Option<"blockWork", "block-work", "int64_t", /*default=*/"262144",
           "Iterations per largest block of the other ops">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
  ];
}

def TadRowWindowMatmulsPass : Pass<"tad-row-window-matmuls"> {
  let summary = "Contractions over overlapping rows of a 1-D buffer as matmuls";
  let description = [{
    On buffers, before `tad-outline-kernels`. A `linalg.generic` over loops
    (m, n, k), parallel, parallel, reduction, with body `out + a · b` (the
    inputs possibly extended to the output's type: bf16 into f32), the
    output at (m, n), `b` at (k, n) or (n, k), and `a` a 1-D buffer read at
    `row · stride + col + offset` where {row, col} = {m, k}, becomes a
    `linalg.matmul` whose A operand is a `memref.reinterpret_cast` view
    [rows, cols] with strides [stride, 1] (consecutive rows overlap where
    stride < cols; the view is only read); likewise with the roles swapped,
    `a` at (m, k) or (k, m) and `b` the buffer with {row, col} = {k, n}
    (the view is B). A generic over (batch, m, n, k) with `a` at (m, k) and
    `b` the buffer read at `k · stride + n + batch · batchStride + offset`
    becomes a `linalg.batch_matmul` of `a` broadcast over the batches (batch
    stride 0) and a [batches, k, n] view of `b`. That is the form of
    tad-to-linalg's implicit-GEMM convolutions (one contraction per kernel
    row over the input's positions in NHWC order, `stride` = channels; the
    bf16 weight gradient: all kernel rows in one batched contraction):
    `tad-vectorize-contractions` schedules the matmul, so a 3x3 convolution
    runs in the register-tiled kernel without an im2col copy of its input.
    Tensors cannot express the overlapping view, hence a buffer pass.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def TadCollapseDimsPass : Pass<"tad-collapse-dims"> {
  let summary = "Merge adjacent loops of a generic that walk contiguous memory";
  let description = [{
    On buffers, before `tad-outline-kernels`. Adjacent loops of a
    `linalg.generic` (projected-permutation maps, static shapes) become one
    loop where they are of the same kind and, in every operand that uses
    them, adjacent in this order and contiguous in memory (the outer
    stride is the inner stride times the inner size): the operands get a
    `memref.collapse_shape` (`linalg::collapseOpIterationDims`; a
    `linalg.index` of a merged loop is recovered by division).

    Why: LLVM fully unrolls an innermost loop of a small constant trip
    count (a 28-wide image row) before its loop vectorizer runs, and then
    vectorizes the next loop out, whose iterations are a row apart: gathers
    and scatters. A ReLU over 64x6x28x28 ran at 11 GB/s that way; merged,
    the rows are one loop of 4704 contiguous elements.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def TadAliasScopesPass
    : Pass<"tad-alias-scopes", "::mlir::LLVM::LLVMFuncOp"> {
  let summary = "Restate noalias pointer arguments as scoped alias metadata";
  let description = [{
    On the LLVM dialect. Every load and store (any op with the LLVM alias
    analysis interface) whose addresses all derive, through
    `getelementptr`, from one `noalias` pointer argument gets that
    argument's alias scope and the other `noalias` arguments' scopes as
    its `noalias_scopes` (what LLVM's inliner does for `noalias`
    arguments). Functions with fewer than two `noalias` arguments are left
    alone.

    Why: the body of an `omp.parallel` is outlined by the OpenMP
    translation into a function that receives the pointers in a context
    struct, so their `noalias` attributes no longer reach LLVM's
    vectorizers; the metadata on the accesses does. Without it the
    im2col copies and pooling backward in a kernel parallelized by
    `tad-parallelize-loops` stayed scalar (the SLP vectorizer cannot add
    run-time overlap checks).
  }];
}

def TadOutlineKernelsPass : Pass<"tad-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Share one function per distinct linalg op on buffers";
  let description = [{
    On buffers, before `tad-vectorize-contractions`. Every linalg op whose
    operands have static strides becomes a call to a private,
    `noinline` function (a kernel) holding that op; ops that are the same
    computation (same op, attributes, body, constants, shapes, strides and
    element types) share one kernel. A training step repeats the same
    computations many times (an unrolled RNN's cells, the three functions
    of a training module, forward ops recomputed in the VJP); compiled
    inline, LLVM vectorizes and unrolls every copy, and compile time and
    code size grow with the number of copies rather than the number of
    distinct kernels (an unrolled 8-step LSTM training module: 740k lines of
    LLVM IR).

    Each memref operand is passed as its base buffer (`memref<T>`, a bare
    pointer at the ABI) plus its offset, then each of its dynamic sizes
    (the rest of a dynamic batch that `tad-block-dynamic-rows` leaves: a
    kernel `generic_Nx256_f32`); the kernel rebuilds the view with
    `memref.reinterpret_cast` (static strides, dynamic offset), so views
    of different buffers and offsets share a kernel. Constant
    operands and constants the op's body uses are cloned into the kernel;
    an op that uses any other value from outside stays inline. Where every
    operand the op writes is rooted in a different allocation or function
    argument than all its other operands, the kernel's pointers are
    `noalias` (as the entry points' are), so LLVM vectorizes its loops
    without run-time overlap checks. That is why a computation that occurs
    once is outlined too (default `min-uses=1`): left inline, a training
    step's single-use ops (the backward of pooling, col2im, the loss) ran
    on pointers LLVM had to assume may alias, and the LeNet training step
    was 15% slower. Kernels used fewer than `min-uses` times are not
    created. A `linalg.fill` just before a `linalg.matmul` or
    `linalg.batch_matmul` that accumulates into the filled buffer (or, past
    ops without memory effects, into a reshape of it: the fill then moves
    onto that view) goes into the contraction's kernel, where
    `tad-vectorize-contractions` starts the accumulators from the fill value
    instead of filling memory.
  }];
  let options = [
    Option<"minUses", "min-uses", "unsigned", /*default=*/"1",
           "Outline only computations that occur at least this many times">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TadExpandArithPass : Pass<"tad-expand-arith"> {
  let summary = "Expand the arith ops that the LLVM conversion lacks, "
                "except floating-point min/max";
  let description = [{
    Like upstream `arith-expand`, but only for what the LLVM conversion
    cannot lower by itself (`ceildivsi`, `ceildivui`, `floordivsi`).
    `arith.maximumf`/`minimumf` (and the `num` forms) are left to
    `arith-to-llvm`, which lowers them to `llvm.maximum`/`llvm.minimum`:
    LLVM's loop vectorizer recognizes those intrinsics as reductions,
    whereas the compare-and-select chain that `arith-expand` makes of them
    keeps a row maximum (softmax, amax, max pooling) scalar. The NaN and
    signed-zero semantics are the same.

    f32 -> bf16 truncations (`arith.truncf`, scalar or vector) become
    integer arithmetic (round to nearest even, NaN kept quiet: upstream's
    bf16 expansion) where the host has no AVX512-BF16: LLVM would
    otherwise call `__truncsfbf2` per element, which libgcc before GCC 13
    lacks (the link fails) and which keeps the loop scalar.
  }];
  let options = [
    Option<"expandBf16Truncations", "expand-bf16", "int", /*default=*/"-1",
           "Expand f32 -> bf16 truncations: 1 always, 0 never, -1 where the "
           "host lacks AVX512-BF16">
  ];
}

def TadSplatConstantsToFillsPass
    : Pass<"tad-splat-constants-to-fills", "::mlir::func::FuncOp"> {
  let summary = "Make large splat constant tensors fills of empty tensors";
  let description = [{
    Before one-shot bufferization. A constant tensor bufferizes into a
    global of its full size: a splat (every element the same, e.g. the zero
    gradient of a term that does not depend on an argument) of 2^31 doubles
    became a 16 GiB global that LLVM spent minutes and 9 GB of memory
    materializing. A splat constant of more than `min-bytes` bytes becomes
    `linalg.fill` of a `tensor.empty`: a buffer filled when the program runs,
    and code whose size does not depend on the tensor's. Smaller splats stay
    constants (read-only data, no fill per call).
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"65536",
           "Splat constants larger than this many bytes become fills">,
  ];
  let dependentDialects = ["::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def TadDuplicateEmptyTensorsPass
    : Pass<"tad-duplicate-empty-tensors", "::mlir::func::FuncOp"> {
  let summary = "Give every use of a tensor.empty (and every init use of a "
                "filled one) its own";
  let description = [{
    Before one-shot bufferization. CSE merges the `tensor.empty` ops of a
    function into one value per shape, so hundreds of linalg ops end up with
    the same `outs` operand. The bufferization analysis then treats all of
    them as writes into one aliasing set and checks every pair of them for
    conflicts: an unrolled 32-step LSTM training step spent 9 of 18 seconds
    of compilation there (quadratic in the number of ops). A `tensor.empty`
    has no contents, so a copy per use means the same and keeps the sets
    small. Likewise a `linalg.fill` of a `tensor.empty` that several ops take
    as their init (one zero accumulator per shape after CSE) gets one fill
    per such use: bufferized in place into each op's output (a memset)
    instead of one filled buffer copied into every output (an unrolled LSTM
    backward copied a 1 MiB zero buffer 31 times per call).
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def TadCombineMatmulSumsPass : Pass<"tad-combine-matmul-sums"> {
  let summary = "Sum thin matrix products as one product of concatenations";
  let description = [{
    On the tad dialect, before the lowering to linalg. Rewrites
    `add(mm(a1, b1), mm(a2, b2))` (alpha 1, each product used only by the
    sum) to `mm(cat(a1, a2, dim 1), cat(b1, b2, dim 0))`, repeatedly, so a
    chain of N sums becomes one product whose shared dimension is the sum
    of theirs. The VJP of a weight used in every step of a recurrent model
    is such a chain: `grad_W = sum_t t(g_t) @ h_t` with `[batch]`-thin
    products. Each of them reads and writes the whole `[m, n]` gradient
    (a 1024x256 LSTM weight, 32 steps of batch 16: 32 passes over 1 MiB
    at a few FLOPs per byte); the combined product has k = 512 and runs at
    the matmul kernel's rate.

    A product is merged when copying its operands, `k * (m + n)` elements,
    costs at most half a pass over its `[m, n]` result (so k is small: at
    most 102 for 1024x256), or when its operands already are
    concatenations only it reads (a product this pass made). Where every
    lhs piece is a transpose `t(x_i)`, the lhs is built as
    `t(cat(x_i, dim 0))`: one transpose of the whole. The sum is
    reassociated; the result differs by rounding only.

    Where the shared dimension is dynamic (a weight gradient summed over a
    dynamic batch), the products are merged the same way and the choice is
    made at run time: an `scf.if` on the merged k runs the merged product
    where the pieces average at most the static limit, the sum of the
    pieces' products elsewhere.

    The same sum carried by an `scf.for` of static trip count T
    (`acc' = acc + a_t @ b_t`, the accumulator read by nothing else, the
    product as thin as above): the loop stacks `t(a_t)` and `b_t` per
    iteration instead (`[T, k, M]` and `[T, k, N]`, at most 16 MiB; not in
    the reverse of a checkpointed loop, `tad.bounded_memory`), and
    one product of the stacks, `t(X) @ B` over `k = T k_t`, is added to
    the accumulator after the loop. This is the reverse loop of a recurrent
    layer imported as a loop (docs/loops.md), the unrolled form's chain
    above.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TadSplitLargeFunctionsPass
    : Pass<"tad-split-large-functions", "::mlir::ModuleOp"> {
  let summary = "Split functions of many ops into calls of private pieces";
  let description = [{
    On buffers, after the buffer optimizations (`tad-outline-kernels` at
    -O2+). A function whose body holds more than `max-ops` ops (nested ones
    counted) has its top-level ops cut into consecutive runs of about
    `max-ops` ops, each moved into a private, `noinline` function
    (`<name>_part<N>`) that the original calls in its place. Values a run
    uses from before it become arguments and values used after it results;
    a memref crosses as its base buffer (a bare pointer) plus the dynamic
    parts of its offset, sizes and strides, rebuilt with
    `memref.reinterpret_cast` on the other side. Constants and
    `memref.get_global` are cloned. A run ends only where no value is live
    that cannot be returned from a piece: a scalar or a view of a heap
    buffer or of a function argument can, a view of a global (its
    descriptor's allocated pointer is a placeholder) or of a stack buffer
    cannot. A run that would take an argument of another type stays where
    it is.

    Why: LLVM's loop passes update the dominator tree of the whole function
    for each loop they change, so their time grows with the product of a
    function's loops and its size. The host function of a training step
    is a sequence of kernel calls (each in a loop over the blocks of a
    dynamic batch); one with 8k such loops (an unrolled SVD, PyTorch's
    `norm(ord="nuc")` over a dynamic batch) spent 114 s in LoopRotate alone
    and 38 s in the register allocator. Pieces keep each function small;
    the calls cost nanoseconds.

    Needs heap buffers whose allocated and aligned pointers are the same
    (the host pipeline lowers `memref.alloc` with `aligned_alloc`): a
    piece's memref crosses as one pointer, and the buffer may be freed on
    the other side.
  }];
  let options = [
    Option<"maxOps", "max-ops", "unsigned", /*default=*/"4000",
           "Split functions of more ops than this into pieces of about "
           "this many">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TadReassociateReductionsPass : Pass<"tad-reassociate-reductions"> {
  let summary = "Allow float sum and product reductions to be reassociated";
  let description = [{
    Adds the `reassoc` fast-math flag to the combiner (`arith.addf`,
    `arith.mulf`) of every reduction of a linalg op. A float reduction
    loop is a chain of dependent additions in source order; LLVM's loop
    vectorizer only splits it into vector lanes of partial sums (and
    interleaves several of them) when the additions may be reassociated. Without the flag
    `sum(tanh(x * w + b) * sigmoid(x))` over 1M floats ran one scalar
    addition chain; with it, the loop is vectorized like an elementwise
    one. The result is summed in another order: it differs from a
    sequential sum by rounding only (partial sums are, if anything, more
    accurate than one long chain).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TadVectorizeRowReductionsPass
    : Pass<"tad-vectorize-row-reductions", "::mlir::func::FuncOp"> {
  let summary = "Reduce short contiguous rows with vector loads and one "
                "horizontal reduction per row";
  let description = [{
    On buffers, after `tad-reassociate-reductions`. A linalg op whose only
    reduction is its innermost loop, over a short static row (one to
    `max-vectors` vector registers: the 64 features of a layer norm or the
    keys of a softmax) read contiguously, is tiled into one row per tile
    (its parallel loops become `scf.for`s inside whatever `scf.parallel`
    holds it) and each row is vectorized: whole-row vector loads, the body
    on vectors, one `vector.reduction` (reassociated, as its combiner
    already was) into the row's accumulator.

    Left to LLVM, such a row's loop is fully unrolled and the loop over
    rows vectorized instead, one gather per element of the row: a row sum
    over [25088, 64] f32 ran at 0.6 ms. Longer rows (more than
    `max-vectors` registers) stay as they were: LLVM vectorizes their
    inner loop itself. Only f32, f64 and integer operands of whole bytes
    (not bf16/f16 ones, nor i1 masks: LLVM packs an i1 vector's elements
    as bits, a memref of i1 holds bytes); an op the upstream vectorizer
    refuses stays scalar.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "Vector register width in bits (0: the host's)">,
    Option<"maxVectors", "max-vectors", "int64_t", /*default=*/"16",
           "Rows longer than this many vector registers are left to LLVM">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
    "::mlir::linalg::LinalgDialect"
  ];
}

def TadControlFlowToLLVMPass
    : Pass<"tad-convert-cf-to-llvm", "::mlir::ModuleOp"> {
  let summary = "convert-cf-to-llvm that also converts AMX tile block "
                "arguments";
  let description = [{
    Upstream's `convert-cf-to-llvm` patterns with a type converter that
    also maps `!amx.tile` to `!llvm.x86_amx`: the bf16 AMX matmul kernel
    carries its accumulator tiles through its k loop.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TAD_PASSES_CPU
