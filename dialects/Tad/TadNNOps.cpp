//===- TadNNOps.cpp - inference of the NN ops (TadNNOps.td) ----------------===//
//
// Result types of softmax, normalization, convolution, pooling and loss ops
// with ATen's shape rules; errors name the op and print the offending
// values. The op classes are generated into TadOps.cpp.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tad/TadOps.h"

#include "dialects/Tad/TensorInference.h"

#include "dialects/Tad/NNShapes.h"
#include "dialects/Tad/ShapeUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::tad;

//===----------------------------------------------------------------------===//
// Shape rules (NNShapes.h)
//===----------------------------------------------------------------------===//

std::optional<SmallVector<int64_t>> mlir::tad::expandParam(ArrayRef<int64_t> param,
                                                           int64_t spatialDims) {
  if (static_cast<int64_t>(param.size()) == spatialDims)
    return SmallVector<int64_t>(param);
  if (param.size() == 1)
    return SmallVector<int64_t>(spatialDims, param[0]);
  return std::nullopt;
}

int64_t mlir::tad::convOutputSize(int64_t in, int64_t kernel, int64_t stride,
                                  int64_t padding, int64_t dilation) {
  if (ShapedType::isDynamic(in) || ShapedType::isDynamic(kernel))
    return ShapedType::kDynamic;
  int64_t span = in + 2 * padding - dilation * (kernel - 1) - 1;
  if (span < 0)
    return 0;
  return span / stride + 1;
}

int64_t mlir::tad::poolOutputSize(int64_t in, int64_t kernel, int64_t stride,
                                  int64_t padding, int64_t dilation,
                                  bool ceilMode) {
  if (ShapedType::isDynamic(in))
    return ShapedType::kDynamic;
  int64_t numerator =
      in + 2 * padding - dilation * (kernel - 1) - 1 + (ceilMode ? stride - 1 : 0);
  // Floor division (the numerator may be negative for invalid inputs).
  int64_t out = (numerator >= 0 ? numerator / stride
                                : -((-numerator + stride - 1) / stride)) +
                1;
  // The last window must start inside the input or the left padding.
  if (ceilMode && (out - 1) * stride >= in + padding)
    --out;
  return out;
}

namespace {
/// Reports inference errors as "'tad.op' op ..." at the op's location.
struct NNInference : TensorInference {
  /// The type of an optional operand, null when absent.
  static RankedTensorType typeOf(Value value) {
    return value ? dyn_cast<RankedTensorType>(value.getType())
                 : RankedTensorType();
  }

  /// Checks that optional `value`, if present, has `shape` and `element`.
  LogicalResult expectShape(Value value, StringRef name, ArrayRef<int64_t> shape,
                            Type element) const {
    RankedTensorType type = typeOf(value);
    if (!type)
      return success();
    if (type.getShape() != shape)
      return fail("'", name, "' must have shape ", shapeToString(shape),
                  ", got ", shapeToString(type.getShape()));
    if (type.getElementType() != element)
      return fail("'", name, "' has element type ", type.getElementType(),
                  ", expected ", element);
    return success();
  }

  LogicalResult checkReduction(int64_t reduction) const {
    if (reduction < 0 || reduction > 2)
      return fail("'reduction' must be 0 (none), 1 (mean) or 2 (sum), got ",
                  reduction);
    return success();
  }
};
} // namespace

template <typename OpTy>
static NNInference nn(std::optional<Location> loc) {
  return NNInference{{loc, OpTy::getOperationName(), {}}};
}

static RankedTensorType tensorOf(ArrayRef<int64_t> shape, Type element) {
  return RankedTensorType::get(shape, element);
}

#define TAD_INFER_SIGNATURE(OP)                                                \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *context, std::optional<Location> loc, ValueRange operands,  \
      DictionaryAttr attributes, OpaqueProperties properties,                  \
      RegionRange regions, SmallVectorImpl<Type> &results)

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

template <typename OpTy>
static LogicalResult verifySoftmax(OpTy op) {
  if (!wrapDim(op.getDim(), op.getSelf().getType().getRank()))
    return op.emitOpError("'dim' ") << op.getDim() << " is out of range for rank "
                                    << op.getSelf().getType().getRank();
  if (op.getHalfToFloat())
    return op.emitOpError("'half_to_float' must be false (tad has no f16)");
  return success();
}

LogicalResult SoftmaxOp::verify() { return verifySoftmax(*this); }
LogicalResult LogSoftmaxOp::verify() { return verifySoftmax(*this); }

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

TAD_INFER_SIGNATURE(NativeLayerNormOp) {
  NNInference infer = nn<NativeLayerNormOp>(loc);
  Adaptor adaptor(operands, attributes, properties, regions);
  auto input = NNInference::typeOf(adaptor.getInput());
  if (!input || !adaptor.getNormalizedShapeAttr() || !adaptor.getEpsAttr())
    return infer.fail("requires a ranked input and attributes "
                      "'normalized_shape' and 'eps'");
  ArrayRef<int64_t> normalized = adaptor.getNormalizedShape();
  ArrayRef<int64_t> shape = input.getShape();
  if (normalized.empty() || normalized.size() > shape.size() ||
      shape.take_back(normalized.size()) != normalized)
    return infer.fail("'normalized_shape' ", shapeToString(normalized),
                      " is not a non-empty suffix of the input shape ",
                      shapeToString(shape));
  Type element = input.getElementType();
  if (failed(infer.expectShape(adaptor.getWeight(), "weight", normalized, element)) ||
      failed(infer.expectShape(adaptor.getBias(), "bias", normalized, element)))
    return failure();
  SmallVector<int64_t> stats(shape.drop_back(normalized.size()));
  stats.append(normalized.size(), 1);
  results.push_back(input);
  results.push_back(tensorOf(stats, element));
  results.push_back(tensorOf(stats, element));
  return success();
}

/// Shared by the batch-norm variants: input [N, C, *], per-channel tensors.
static LogicalResult inferBatchNorm(const NNInference &infer, Value inputValue,
                                    ArrayRef<std::pair<Value, StringRef>> perChannel,
                                    bool training, SmallVectorImpl<Type> &results) {
  auto input = NNInference::typeOf(inputValue);
  if (!input || input.getRank() < 2)
    return infer.fail("expects an input of rank >= 2 ([N, C, ...])");
  int64_t channels = input.getDimSize(1);
  Type element = input.getElementType();
  for (auto [value, name] : perChannel)
    if (failed(infer.expectShape(value, name, {channels}, element)))
      return failure();
  if (!training)
    for (auto [value, name] : perChannel)
      if ((name == "running_mean" || name == "running_var") && !value)
        return infer.fail("needs '", name, "' when not training");
  int64_t statSize = training ? channels : 0;
  results.push_back(input);
  results.push_back(tensorOf({statSize}, element));
  results.push_back(tensorOf({statSize}, element));
  return success();
}

TAD_INFER_SIGNATURE(NativeBatchNormOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  NNInference infer = nn<NativeBatchNormOp>(loc);
  if (!adaptor.getTrainingAttr() || !adaptor.getEpsAttr() ||
      !adaptor.getMomentumAttr())
    return infer.fail("requires attributes 'training', 'momentum' and 'eps'");
  return inferBatchNorm(infer, adaptor.getInput(),
                        {{adaptor.getWeight(), "weight"},
                         {adaptor.getBias(), "bias"},
                         {adaptor.getRunningMean(), "running_mean"},
                         {adaptor.getRunningVar(), "running_var"}},
                        adaptor.getTraining(), results);
}

TAD_INFER_SIGNATURE(NativeBatchNormLegitOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  NNInference infer = nn<NativeBatchNormLegitOp>(loc);
  if (!adaptor.getTrainingAttr() || !adaptor.getEpsAttr() ||
      !adaptor.getMomentumAttr())
    return infer.fail("requires attributes 'training', 'momentum' and 'eps'");
  return inferBatchNorm(infer, adaptor.getInput(),
                        {{adaptor.getWeight(), "weight"},
                         {adaptor.getBias(), "bias"},
                         {adaptor.getRunningMean(), "running_mean"},
                         {adaptor.getRunningVar(), "running_var"}},
                        adaptor.getTraining(), results);
}

TAD_INFER_SIGNATURE(NativeBatchNormLegitNoTrainingOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  NNInference infer = nn<NativeBatchNormLegitNoTrainingOp>(loc);
  if (!adaptor.getEpsAttr() || !adaptor.getMomentumAttr())
    return infer.fail("requires attributes 'momentum' and 'eps'");
  return inferBatchNorm(infer, adaptor.getInput(),
                        {{adaptor.getWeight(), "weight"},
                         {adaptor.getBias(), "bias"},
                         {adaptor.getRunningMean(), "running_mean"},
                         {adaptor.getRunningVar(), "running_var"}},
                        /*training=*/false, results);
}

TAD_INFER_SIGNATURE(NativeGroupNormOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  NNInference infer = nn<NativeGroupNormOp>(loc);
  auto input = NNInference::typeOf(adaptor.getInput());
  if (!input || input.getRank() < 2)
    return infer.fail("expects an input of rank >= 2 ([N, C, ...])");
  if (!adaptor.getNAttr() || !adaptor.getCAttr() || !adaptor.getHxWAttr() ||
      !adaptor.getGroupAttr() || !adaptor.getEpsAttr())
    return infer.fail("requires attributes 'N', 'C', 'HxW', 'group' and 'eps'");
  ArrayRef<int64_t> shape = input.getShape();
  int64_t hxw = 1;
  for (int64_t size : shape.drop_front(2))
    hxw *= size;
  if (adaptor.getN() != shape[0] || adaptor.getC() != shape[1] ||
      adaptor.getHxW() != hxw)
    return infer.fail("N, C, HxW = ", static_cast<int64_t>(adaptor.getN()), ", ",
                      static_cast<int64_t>(adaptor.getC()), ", ",
                      static_cast<int64_t>(adaptor.getHxW()),
                      " do not match the input shape ", shapeToString(shape));
  int64_t group = adaptor.getGroup();
  if (group <= 0 || shape[1] % group != 0)
    return infer.fail("'group' ", group, " must divide the ", shape[1],
                      " channels");
  Type element = input.getElementType();
  if (failed(infer.expectShape(adaptor.getWeight(), "weight", {shape[1]}, element)) ||
      failed(infer.expectShape(adaptor.getBias(), "bias", {shape[1]}, element)))
    return failure();
  results.push_back(input);
  results.push_back(tensorOf({shape[0], group}, element));
  results.push_back(tensorOf({shape[0], group}, element));
  return success();
}

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

/// Checks a non-transposed convolution of `input` with `weight` and returns
/// its output shape.
static FailureOr<SmallVector<int64_t>>
convolutionShape(const NNInference &infer, RankedTensorType input,
                 RankedTensorType weight, ArrayRef<int64_t> strideAttr,
                 ArrayRef<int64_t> paddingAttr, ArrayRef<int64_t> dilationAttr,
                 bool transposed, int64_t groups) {
  if (transposed) {
    (void)infer.fail("transposed convolution is not supported");
    return failure();
  }
  if (input.getRank() < 3 || weight.getRank() != input.getRank()) {
    (void)infer.fail("expects input [N, C, *] and weight [F, C/groups, *] of "
                     "the same rank >= 3, got shapes ",
                     shapeToString(input.getShape()), " and ",
                     shapeToString(weight.getShape()));
    return failure();
  }
  if (input.getElementType() != weight.getElementType()) {
    (void)infer.fail("input and weight have different element types");
    return failure();
  }
  int64_t spatial = input.getRank() - 2;
  auto stride = expandParam(strideAttr, spatial);
  auto padding = expandParam(paddingAttr, spatial);
  auto dilation = expandParam(dilationAttr, spatial);
  if (!stride || !padding || !dilation) {
    (void)infer.fail("'stride', 'padding' and 'dilation' need 1 or ", spatial,
                     " values");
    return failure();
  }
  for (int64_t i = 0; i < spatial; ++i)
    if ((*stride)[i] <= 0 || (*dilation)[i] <= 0 || (*padding)[i] < 0) {
      (void)infer.fail("stride and dilation must be positive and padding "
                       "non-negative");
      return failure();
    }
  int64_t channels = input.getDimSize(1), filters = weight.getDimSize(0);
  auto divides = [&](int64_t size) {
    return ShapedType::isDynamic(size) || size % groups == 0;
  };
  if (ShapedType::isDynamic(channels)) {
    (void)infer.fail("needs a static number of input channels, got input "
                     "of shape ", shapeToString(input.getShape()));
    return failure();
  }
  if (groups <= 0 || channels % groups != 0 || !divides(filters) ||
      !dimsCompatible(mulSizes(weight.getDimSize(1), groups), channels)) {
    (void)infer.fail("weight of shape ", shapeToString(weight.getShape()),
                     " does not fit ", input.getDimSize(1), " input channels in ",
                     groups, " groups");
    return failure();
  }
  SmallVector<int64_t> shape{input.getDimSize(0), filters};
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t out = convOutputSize(input.getDimSize(i + 2), weight.getDimSize(i + 2),
                                 (*stride)[i], (*padding)[i], (*dilation)[i]);
    if (!ShapedType::isDynamic(out) && out < 1) {
      (void)infer.fail("kernel of shape ", shapeToString(weight.getShape()),
                       " does not fit the padded input of shape ",
                       shapeToString(input.getShape()));
      return failure();
    }
    shape.push_back(out);
  }
  return shape;
}

TAD_INFER_SIGNATURE(ConvolutionOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  NNInference infer = nn<ConvolutionOp>(loc);
  auto input = NNInference::typeOf(adaptor.getInput());
  auto weight = NNInference::typeOf(adaptor.getWeight());
  if (!input || !weight || !adaptor.getStrideAttr() || !adaptor.getPaddingAttr() ||
      !adaptor.getDilationAttr() || !adaptor.getTransposedAttr() ||
      !adaptor.getGroupsAttr() || !adaptor.getOutputPaddingAttr())
    return infer.fail("requires input, weight and attributes 'stride', "
                      "'padding', 'dilation', 'transposed', 'output_padding', "
                      "'groups'");
  FailureOr<SmallVector<int64_t>> shape = convolutionShape(
      infer, input, weight, adaptor.getStride(), adaptor.getPadding(),
      adaptor.getDilation(), adaptor.getTransposed(), adaptor.getGroups());
  if (failed(shape) ||
      failed(infer.expectShape(adaptor.getBias(), "bias", {weight.getDimSize(0)},
                               input.getElementType())))
    return failure();
  results.push_back(tensorOf(*shape, input.getElementType()));
  return success();
}

TAD_INFER_SIGNATURE(ConvolutionBackwardOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  NNInference infer = nn<ConvolutionBackwardOp>(loc);
  auto grad = NNInference::typeOf(adaptor.getGradOutput());
  auto input = NNInference::typeOf(adaptor.getInput());
  auto weight = NNInference::typeOf(adaptor.getWeight());
  if (!grad || !input || !weight || !adaptor.getStrideAttr() ||
      !adaptor.getPaddingAttr() || !adaptor.getDilationAttr() ||
      !adaptor.getTransposedAttr() || !adaptor.getGroupsAttr() ||
      !adaptor.getOutputPaddingAttr() || !adaptor.getOutputMaskAttr())
    return infer.fail("requires grad_output, input, weight and the "
                      "convolution's attributes and 'output_mask'");
  if (adaptor.getOutputMask().size() != 3)
    return infer.fail("'output_mask' needs 3 values");
  FailureOr<SmallVector<int64_t>> shape = convolutionShape(
      infer, input, weight, adaptor.getStride(), adaptor.getPadding(),
      adaptor.getDilation(), adaptor.getTransposed(), adaptor.getGroups());
  if (failed(shape))
    return failure();
  if (grad.getShape() != ArrayRef<int64_t>(*shape) ||
      grad.getElementType() != input.getElementType())
    return infer.fail("grad_output of type ", grad,
                      " does not match the convolution's output shape ",
                      shapeToString(*shape));
  results.push_back(input);
  results.push_back(weight);
  results.push_back(tensorOf({weight.getDimSize(0)}, input.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// Resolves pooling parameters and the output shape of `self` ([N, C, H, W]
/// or [C, H, W]).
static FailureOr<SmallVector<int64_t>>
poolShape(const NNInference &infer, RankedTensorType self, ArrayRef<int64_t> kernel,
          std::optional<ArrayRef<int64_t>> stride,
          std::optional<ArrayRef<int64_t>> padding,
          std::optional<ArrayRef<int64_t>> dilation, bool ceilMode) {
  if (!self || (self.getRank() != 3 && self.getRank() != 4)) {
    (void)infer.fail("expects a 3-D or 4-D input");
    return failure();
  }
  auto k = expandParam(kernel, 2);
  auto s = stride && !stride->empty() ? expandParam(*stride, 2) : k;
  auto p = padding ? expandParam(*padding, 2) : SmallVector<int64_t>{0, 0};
  auto d = dilation ? expandParam(*dilation, 2) : SmallVector<int64_t>{1, 1};
  if (!k || !s || !p || !d) {
    (void)infer.fail("'kernel_size', 'stride', 'padding' and 'dilation' need "
                     "1 or 2 values");
    return failure();
  }
  SmallVector<int64_t> shape(self.getShape().drop_back(2));
  for (int i = 0; i < 2; ++i) {
    if ((*k)[i] <= 0 || (*s)[i] <= 0 || (*d)[i] <= 0 || (*p)[i] < 0 ||
        (*p)[i] * 2 > (*k)[i]) {
      (void)infer.fail("kernel ", shapeToString(*k), ", stride ",
                       shapeToString(*s), ", padding ", shapeToString(*p),
                       ", dilation ", shapeToString(*d),
                       " are invalid (padding must be at most half the kernel)");
      return failure();
    }
    int64_t out = poolOutputSize(self.getShape()[self.getRank() - 2 + i], (*k)[i],
                                 (*s)[i], (*p)[i], (*d)[i], ceilMode);
    if (!ShapedType::isDynamic(out) && out < 1) {
      (void)infer.fail("output size is too small for input of shape ",
                       shapeToString(self.getShape()));
      return failure();
    }
    shape.push_back(out);
  }
  return shape;
}

TAD_INFER_SIGNATURE(MaxPool2dWithIndicesOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  NNInference infer = nn<MaxPool2dWithIndicesOp>(loc);
  auto self = NNInference::typeOf(adaptor.getSelf());
  if (!adaptor.getKernelSizeAttr())
    return infer.fail("requires attribute 'kernel_size'");
  FailureOr<SmallVector<int64_t>> shape =
      poolShape(infer, self, adaptor.getKernelSize(), adaptor.getStride(),
                adaptor.getPadding(), adaptor.getDilation(), adaptor.getCeilMode());
  if (failed(shape))
    return failure();
  results.push_back(tensorOf(*shape, self.getElementType()));
  results.push_back(tensorOf(*shape, IntegerType::get(context, 64)));
  return success();
}

TAD_INFER_SIGNATURE(MaxPool2dWithIndicesBackwardOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  NNInference infer = nn<MaxPool2dWithIndicesBackwardOp>(loc);
  auto self = NNInference::typeOf(adaptor.getSelf());
  auto grad = NNInference::typeOf(adaptor.getGradOutput());
  auto indices = NNInference::typeOf(adaptor.getIndices());
  if (!adaptor.getKernelSizeAttr() || !adaptor.getStrideAttr() ||
      !adaptor.getPaddingAttr() || !adaptor.getDilationAttr() ||
      !adaptor.getCeilModeAttr())
    return infer.fail("requires the pooling attributes");
  FailureOr<SmallVector<int64_t>> shape = poolShape(
      infer, self, adaptor.getKernelSize(), adaptor.getStride(),
      adaptor.getPadding(), adaptor.getDilation(), adaptor.getCeilMode());
  if (failed(shape))
    return failure();
  if (!grad || !indices || grad.getShape() != ArrayRef<int64_t>(*shape) ||
      indices.getShape() != ArrayRef<int64_t>(*shape))
    return infer.fail("grad_output and indices must have the pooled shape ",
                      shapeToString(*shape));
  results.push_back(self);
  return success();
}

TAD_INFER_SIGNATURE(AvgPool2dOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  NNInference infer = nn<AvgPool2dOp>(loc);
  auto self = NNInference::typeOf(adaptor.getSelf());
  if (!adaptor.getKernelSizeAttr())
    return infer.fail("requires attribute 'kernel_size'");
  if (auto divisor = adaptor.getDivisorOverride(); divisor && *divisor == 0)
    return infer.fail("'divisor_override' must not be 0");
  FailureOr<SmallVector<int64_t>> shape =
      poolShape(infer, self, adaptor.getKernelSize(), adaptor.getStride(),
                adaptor.getPadding(), std::nullopt, adaptor.getCeilMode());
  if (failed(shape))
    return failure();
  results.push_back(tensorOf(*shape, self.getElementType()));
  return success();
}

TAD_INFER_SIGNATURE(AvgPool2dBackwardOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  NNInference infer = nn<AvgPool2dBackwardOp>(loc);
  auto self = NNInference::typeOf(adaptor.getSelf());
  auto grad = NNInference::typeOf(adaptor.getGradOutput());
  if (!adaptor.getKernelSizeAttr() || !adaptor.getStrideAttr() ||
      !adaptor.getPaddingAttr() || !adaptor.getCeilModeAttr() ||
      !adaptor.getCountIncludePadAttr())
    return infer.fail("requires the pooling attributes");
  if (auto divisor = adaptor.getDivisorOverride(); divisor && *divisor == 0)
    return infer.fail("'divisor_override' must not be 0");
  FailureOr<SmallVector<int64_t>> shape =
      poolShape(infer, self, adaptor.getKernelSize(), adaptor.getStride(),
                adaptor.getPadding(), std::nullopt, adaptor.getCeilMode());
  if (failed(shape))
    return failure();
  if (!grad || grad.getShape() != ArrayRef<int64_t>(*shape))
    return infer.fail("grad_output must have the pooled shape ",
                      shapeToString(*shape));
  results.push_back(self);
  return success();
}

TAD_INFER_SIGNATURE(AdaptiveAvgPool2dOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  NNInference infer = nn<AdaptiveAvgPool2dOp>(loc);
  auto self = NNInference::typeOf(adaptor.getSelf());
  if (!self || (self.getRank() != 3 && self.getRank() != 4) ||
      !adaptor.getOutputSizeAttr())
    return infer.fail("expects a 3-D or 4-D input and 'output_size'");
  ArrayRef<int64_t> size = adaptor.getOutputSize();
  if (size.size() != 2 || size[0] <= 0 || size[1] <= 0)
    return infer.fail("'output_size' must be two positive sizes, got ",
                      shapeToString(size));
  SmallVector<int64_t> shape(self.getShape().drop_back(2));
  shape.append(size.begin(), size.end());
  results.push_back(tensorOf(shape, self.getElementType()));
  return success();
}

TAD_INFER_SIGNATURE(AdaptiveAvgPool2dBackwardOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  NNInference infer = nn<AdaptiveAvgPool2dBackwardOp>(loc);
  auto self = NNInference::typeOf(adaptor.getSelf());
  auto grad = NNInference::typeOf(adaptor.getGradOutput());
  if (!self || !grad || (self.getRank() != 3 && self.getRank() != 4) ||
      grad.getRank() != self.getRank() ||
      grad.getShape().drop_back(2) != self.getShape().drop_back(2))
    return infer.fail("expects grad_output and self of rank 3 or 4 that "
                      "differ only in the last two sizes");
  results.push_back(self);
  return success();
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

/// nll_loss: self [N, C] or [C] (2-d: [N, C, H, W]), target without the
/// class dimension; returns the unreduced shape (the target's).
static FailureOr<SmallVector<int64_t>>
nllShapes(const NNInference &infer, RankedTensorType self,
          RankedTensorType target, Value weight, bool twoD) {
  if (!self || !target) {
    (void)infer.fail("expects ranked self and target");
    return failure();
  }
  bool rankOk = twoD ? self.getRank() == 4
                     : (self.getRank() == 1 || self.getRank() == 2);
  SmallVector<int64_t> expected(self.getShape());
  int64_t classDim = self.getRank() == 1 ? 0 : 1;
  if (rankOk)
    expected.erase(expected.begin() + classDim);
  if (!rankOk || !shapesCompatible(target.getShape(), expected)) {
    (void)infer.fail("expects self ", twoD ? "[N, C, H, W]" : "[N, C] or [C]",
                     " and target without the class dimension, got ",
                     shapeToString(self.getShape()), " and ",
                     shapeToString(target.getShape()));
    return failure();
  }
  if (failed(infer.expectShape(weight, "weight", {self.getDimSize(classDim)},
                               self.getElementType())))
    return failure();
  return expected;
}

template <typename OpTy>
static LogicalResult inferNllForward(std::optional<Location> loc,
                                     ValueRange operands, DictionaryAttr attributes,
                                     OpaqueProperties properties, RegionRange regions,
                                     SmallVectorImpl<Type> &results, bool twoD) {
  typename OpTy::Adaptor adaptor(operands, attributes, properties, regions);
  NNInference infer = nn<OpTy>(loc);
  if (!adaptor.getReductionAttr() || !adaptor.getIgnoreIndexAttr())
    return infer.fail("requires attributes 'reduction' and 'ignore_index'");
  if (failed(infer.checkReduction(adaptor.getReduction())))
    return failure();
  auto self = NNInference::typeOf(adaptor.getSelf());
  FailureOr<SmallVector<int64_t>> shape =
      nllShapes(infer, self, NNInference::typeOf(adaptor.getTarget()),
                adaptor.getWeight(), twoD);
  if (failed(shape))
    return failure();
  Type element = self.getElementType();
  results.push_back(tensorOf(adaptor.getReduction() == 0 ? ArrayRef<int64_t>(*shape)
                                                         : ArrayRef<int64_t>(),
                             element));
  results.push_back(tensorOf({}, element));
  return success();
}

TAD_INFER_SIGNATURE(NllLossForwardOp) {
  return inferNllForward<NllLossForwardOp>(loc, operands, attributes, properties,
                                           regions, results, /*twoD=*/false);
}
TAD_INFER_SIGNATURE(NllLoss2dForwardOp) {
  return inferNllForward<NllLoss2dForwardOp>(loc, operands, attributes, properties,
                                             regions, results, /*twoD=*/true);
}

template <typename OpTy>
static LogicalResult inferNllBackward(std::optional<Location> loc,
                                      ValueRange operands, DictionaryAttr attributes,
                                      OpaqueProperties properties, RegionRange regions,
                                      SmallVectorImpl<Type> &results, bool twoD) {
  typename OpTy::Adaptor adaptor(operands, attributes, properties, regions);
  NNInference infer = nn<OpTy>(loc);
  if (!adaptor.getReductionAttr() || !adaptor.getIgnoreIndexAttr())
    return infer.fail("requires attributes 'reduction' and 'ignore_index'");
  if (failed(infer.checkReduction(adaptor.getReduction())))
    return failure();
  auto self = NNInference::typeOf(adaptor.getSelf());
  FailureOr<SmallVector<int64_t>> shape =
      nllShapes(infer, self, NNInference::typeOf(adaptor.getTarget()),
                adaptor.getWeight(), twoD);
  if (failed(shape))
    return failure();
  Type element = self.getElementType();
  ArrayRef<int64_t> gradShape =
      adaptor.getReduction() == 0 ? ArrayRef<int64_t>(*shape) : ArrayRef<int64_t>();
  if (failed(infer.expectShape(adaptor.getGradOutput(), "grad_output", gradShape,
                               element)) ||
      failed(infer.expectShape(adaptor.getTotalWeight(), "total_weight", {},
                               element)))
    return failure();
  results.push_back(self);
  return success();
}

TAD_INFER_SIGNATURE(NllLossBackwardOp) {
  return inferNllBackward<NllLossBackwardOp>(loc, operands, attributes, properties,
                                             regions, results, /*twoD=*/false);
}
TAD_INFER_SIGNATURE(NllLoss2dBackwardOp) {
  return inferNllBackward<NllLoss2dBackwardOp>(loc, operands, attributes,
                                               properties, regions, results,
                                               /*twoD=*/true);
}

/// A pointwise loss of self and target (same shape for the BCE family,
/// broadcast for the regression losses), reduced by `reduction`.
static LogicalResult inferPointwiseLoss(const NNInference &infer, Value selfValue,
                                        Value targetValue, ArrayRef<Value> weights,
                                        IntegerAttr reduction, bool sameShape,
                                        SmallVectorImpl<Type> &results) {
  auto self = NNInference::typeOf(selfValue);
  auto target = NNInference::typeOf(targetValue);
  if (!self || !target)
    return infer.fail("expects ranked self and target");
  if (self.getElementType() != target.getElementType())
    return infer.fail("self and target have different element types");
  SmallVector<int64_t> shape(self.getShape());
  if (sameShape) {
    if (!shapesCompatible(self.getShape(), target.getShape()))
      return infer.fail("target of shape ", shapeToString(target.getShape()),
                        " must have the shape of self ",
                        shapeToString(self.getShape()));
  } else {
    auto joined = broadcastShapes(self.getShape(), target.getShape());
    if (!joined)
      return infer.fail("shapes ", shapeToString(self.getShape()), " and ",
                        shapeToString(target.getShape()),
                        " are not broadcast-compatible");
    shape = *joined;
  }
  for (Value weight : weights) {
    auto type = NNInference::typeOf(weight);
    if (!type)
      continue;
    auto joined = broadcastShapes(type.getShape(), shape);
    if (!joined || ArrayRef<int64_t>(*joined) != ArrayRef<int64_t>(shape) ||
        type.getElementType() != self.getElementType())
      return infer.fail("weight of type ", type, " does not broadcast to ",
                        shapeToString(shape));
  }
  int64_t red = reduction ? reduction.getInt() : 1;
  if (failed(infer.checkReduction(red)))
    return failure();
  results.push_back(tensorOf(red == 0 ? ArrayRef<int64_t>(shape) : ArrayRef<int64_t>(),
                             self.getElementType()));
  return success();
}

TAD_INFER_SIGNATURE(BinaryCrossEntropyOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  return inferPointwiseLoss(nn<BinaryCrossEntropyOp>(loc), adaptor.getSelf(),
                            adaptor.getTarget(), {adaptor.getWeight()},
                            adaptor.getReductionAttr(), true, results);
}

TAD_INFER_SIGNATURE(BinaryCrossEntropyWithLogitsOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  return inferPointwiseLoss(nn<BinaryCrossEntropyWithLogitsOp>(loc),
                            adaptor.getSelf(), adaptor.getTarget(),
                            {adaptor.getWeight(), adaptor.getPosWeight()},
                            adaptor.getReductionAttr(), true, results);
}

TAD_INFER_SIGNATURE(SmoothL1LossOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  NNInference infer = nn<SmoothL1LossOp>(loc);
  if (adaptor.getBetaAttr() && adaptor.getBeta().convertToDouble() < 0)
    return infer.fail("'beta' must be non-negative");
  return inferPointwiseLoss(infer, adaptor.getSelf(), adaptor.getTarget(), {},
                            adaptor.getReductionAttr(), false, results);
}

TAD_INFER_SIGNATURE(HuberLossOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  NNInference infer = nn<HuberLossOp>(loc);
  if (adaptor.getDeltaAttr() && adaptor.getDelta().convertToDouble() <= 0)
    return infer.fail("'delta' must be positive");
  return inferPointwiseLoss(infer, adaptor.getSelf(), adaptor.getTarget(), {},
                            adaptor.getReductionAttr(), false, results);
}

#undef TAD_INFER_SIGNATURE
