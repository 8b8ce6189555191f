//===- ABI.h - the tad C ABI as seen by the compiler -------------*- C++
//-*-===//
//
// Helpers shared by tad-record-abi, tad-export-abi and the header generator:
// the `tad.abi` attribute that carries an exported function's tensor
// signature from linalg-on-tensors down to the LLVM dialect, and the mapping
// of element types to the tad_dtype codes of runtime/include/tad/runtime.h.
//
// The attribute is a dictionary of two arrays of type attributes:
//
//   tad.abi = {args = [tensor<4x8xf32>], results = [tensor<4xf32>]}
//
// and, where a tensor has dynamic sizes, their symbols (see Signature):
//
//   tad.abi = {args = [tensor<?x8xf32>], results = [tensor<?xf32>],
//              sizes = [array<i64: -1, 8>, array<i64: -1>], symbols = ["B"]}
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_ABI_ABI_H
#define TAD_PASSES_ABI_ABI_H

#include "tad/version.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include <optional>

namespace mlir::tad::abi {

/// Attribute on an exported function holding its original tensor signature.
inline constexpr llvm::StringLiteral kSignatureAttrName = "tad.abi";
/// Prefix of the internal implementation behind each exported entry point.
inline constexpr llvm::StringLiteral kImplPrefix = "_tad_impl_";
/// Prefix of the internal function that calls an implementation with its
/// pointers packed in an array (a `tad_packed_impl`).
inline constexpr llvm::StringLiteral kPackedPrefix = "_tad_packed_";
/// The runtime function that runs a packed implementation, turning a failed
/// allocation into TAD_ERROR_MEMORY.
inline constexpr llvm::StringLiteral kRunSymbol = "__tad_run";
/// The module table (a `tad_module_info`) that the runtime's
/// tad_module_info() returns.
inline constexpr llvm::StringLiteral kModuleInfoSymbol = "__tad_module";
/// The runtime's boundary check, called first by every entry point.
inline constexpr llvm::StringLiteral kCheckCallSymbol = "__tad_check_call";
/// The boundary check of GPU modules, which accepts device tensors.
inline constexpr llvm::StringLiteral kCheckDeviceCallSymbol =
    "__tad_check_device_call";
/// Value of `tad_module_info::abi_version` (TAD_ABI_VERSION).
inline constexpr int32_t kAbiVersion = TAD_ABI_VERSION;
/// Value of `tad_module_info::tad_version`: the release of tad that wrote the
/// module (TAD_VERSION_STRING).
inline constexpr llvm::StringLiteral kTadVersion = TAD_VERSION_STRING;

/// tad_dtype codes; the values are part of the ABI.
enum class DType : int32_t {
  F32 = 0,
  F64 = 1,
  I64 = 2,
  I32 = 3,
  Bool = 4,
  BF16 = 5,
  F16 = 6
};

/// The tad_dtype of an element type, or nullopt if the ABI has none.
inline std::optional<DType> getDType(Type elementType) {
  if (elementType.isF32())
    return DType::F32;
  if (elementType.isF64())
    return DType::F64;
  if (elementType.isSignlessInteger(64))
    return DType::I64;
  if (elementType.isSignlessInteger(32))
    return DType::I32;
  if (elementType.isSignlessInteger(1))
    return DType::Bool;
  if (elementType.isBF16())
    return DType::BF16;
  if (elementType.isF16())
    return DType::F16;
  return std::nullopt;
}

/// The C element type of a dtype, as written in generated headers.
inline StringRef getCTypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "float";
  case DType::F64:
    return "double";
  case DType::I64:
    return "int64_t";
  case DType::I32:
    return "int32_t";
  case DType::Bool:
    return "uint8_t";
  case DType::BF16: // C has no portable bf16 or f16 type: the bits
  case DType::F16:
    return "uint16_t";
  }
  return "?";
}

/// The runtime's short name of a dtype (tad_dtype_name).
inline StringRef getDTypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::I64:
    return "i64";
  case DType::I32:
    return "i32";
  case DType::Bool:
    return "bool";
  case DType::BF16:
    return "bf16";
  case DType::F16:
    return "f16";
  }
  return "?";
}

/// Whether `name` can be the name of a C function: [A-Za-z_][A-Za-z0-9_]*.
inline bool isCIdentifier(StringRef name) {
  if (name.empty() || llvm::isDigit(name.front()))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// Whether `name` is reserved for symbols that tad itself defines.
inline bool isReservedName(StringRef name) {
  return name.starts_with("__tad") || name.starts_with("_tad_") ||
         name.starts_with("tad_");
}

/// An exported function's signature at the C boundary.
///
/// Dynamic sizes are symbols: `sizes` holds, for each argument and then
/// each result, its dimensions as the C table writes them: a static size,
/// or -1 - k for symbol k (`symbols[k]` names it). Dimensions with the same
/// symbol have the same size in every call; every symbol is the size of
/// some argument's dimension, so the caller's arguments determine the
/// result shapes. Static signatures have no symbols.
struct Signature {
  SmallVector<RankedTensorType> args;
  SmallVector<RankedTensorType> results;
  SmallVector<SmallVector<int64_t>> sizes;
  SmallVector<std::string> symbols;

  /// The C table's dimensions of argument `i` (or, past the arguments, of
  /// result `i - args.size()`).
  ArrayRef<int64_t> dims(size_t i) const { return sizes[i]; }
  bool isDynamic() const { return !symbols.empty(); }
  /// The argument and dimension that define symbol `k` (its first use).
  std::pair<unsigned, unsigned> symbolSource(size_t k) const {
    for (auto [i, dims] : llvm::enumerate(ArrayRef(sizes).take_front(args.size())))
      for (auto [d, size] : llvm::enumerate(dims))
        if (size == -1 - static_cast<int64_t>(k))
          return {static_cast<unsigned>(i), static_cast<unsigned>(d)};
    llvm_unreachable("every symbol is the size of an argument's dimension");
  }
};

/// Most symbols a signature may have (the boundary check binds them in a
/// fixed array).
inline constexpr size_t kMaxSymbols = 64;

/// Builds the `tad.abi` attribute value; `sizes` and `symbols` only for
/// dynamic signatures (see Signature).
inline DictionaryAttr buildSignatureAttr(MLIRContext *context, TypeRange args,
                                         TypeRange results,
                                         ArrayRef<SmallVector<int64_t>> sizes = {},
                                         ArrayRef<std::string> symbols = {}) {
  auto toArray = [&](TypeRange types) {
    SmallVector<Attribute> attrs;
    for (Type type : types)
      attrs.push_back(TypeAttr::get(type));
    return ArrayAttr::get(context, attrs);
  };
  Builder b(context);
  SmallVector<NamedAttribute> entries{
      b.getNamedAttr("args", toArray(args)),
      b.getNamedAttr("results", toArray(results))};
  if (!symbols.empty()) {
    SmallVector<Attribute> sizeAttrs, symbolAttrs;
    for (ArrayRef<int64_t> dims : sizes)
      sizeAttrs.push_back(b.getDenseI64ArrayAttr(dims));
    for (StringRef symbol : symbols)
      symbolAttrs.push_back(b.getStringAttr(symbol));
    entries.push_back(b.getNamedAttr("sizes", b.getArrayAttr(sizeAttrs)));
    entries.push_back(b.getNamedAttr("symbols", b.getArrayAttr(symbolAttrs)));
  }
  return b.getDictionaryAttr(entries);
}

/// Reads the `tad.abi` attribute of `op`; reports malformed attributes as
/// errors on `op`. Returns nullopt (and reports nothing) if it has none.
inline FailureOr<std::optional<Signature>> readSignature(Operation *op) {
  Attribute attr = op->getAttr(kSignatureAttrName);
  if (!attr)
    return std::optional<Signature>();
  auto dict = dyn_cast<DictionaryAttr>(attr);
  auto args = dict ? dict.getAs<ArrayAttr>("args") : ArrayAttr();
  auto results = dict ? dict.getAs<ArrayAttr>("results") : ArrayAttr();
  if (!args || !results)
    return op->emitError("malformed '")
           << kSignatureAttrName << "' attribute: expected {args = [...], "
           << "results = [...]}, got " << attr;
  auto sizes = dict.getAs<ArrayAttr>("sizes");
  auto symbols = dict.getAs<ArrayAttr>("symbols");
  bool dynamic = sizes || symbols;
  Signature signature;
  for (auto [list, out] : {std::pair(args, &signature.args),
                           std::pair(results, &signature.results)}) {
    for (Attribute element : list) {
      auto typeAttr = dyn_cast<TypeAttr>(element);
      auto tensor =
          typeAttr ? dyn_cast<RankedTensorType>(typeAttr.getValue()) : nullptr;
      if (!tensor || (!dynamic && !tensor.hasStaticShape()) ||
          !getDType(tensor.getElementType()))
        return op->emitError("malformed '")
               << kSignatureAttrName << "' attribute: " << element
               << " is not a " << (dynamic ? "" : "static ")
               << "tensor type with a tad dtype";
      out->push_back(tensor);
    }
  }
  size_t count = signature.args.size() + signature.results.size();
  if (!dynamic) {
    for (RankedTensorType type : llvm::concat<RankedTensorType>(
             signature.args, signature.results))
      signature.sizes.push_back(llvm::to_vector(type.getShape()));
    return std::optional<Signature>(std::move(signature));
  }
  auto malformed = [&]() {
    return op->emitError("malformed '")
           << kSignatureAttrName << "' attribute: 'sizes' and 'symbols' must "
           << "give each tensor's dimensions (a static size, or -1 - k for "
           << "symbol k) and name at most " << kMaxSymbols << " symbols, got "
           << attr;
  };
  if (!sizes || !symbols || sizes.size() != count ||
      symbols.size() > kMaxSymbols)
    return malformed();
  for (Attribute symbol : symbols) {
    auto name = dyn_cast<StringAttr>(symbol);
    if (!name)
      return malformed();
    signature.symbols.push_back(name.str());
  }
  int64_t numSymbols = static_cast<int64_t>(signature.symbols.size());
  for (auto [i, element] : llvm::enumerate(sizes)) {
    auto dims = dyn_cast<DenseI64ArrayAttr>(element);
    RankedTensorType type = i < signature.args.size()
                                ? signature.args[i]
                                : signature.results[i - signature.args.size()];
    if (!dims || dims.size() != type.getRank())
      return malformed();
    for (auto [size, declared] : llvm::zip_equal(dims.asArrayRef(),
                                                 type.getShape()))
      if (size < -numSymbols ||
          (size >= 0 ? declared != size : !ShapedType::isDynamic(declared)))
        return malformed();
    signature.sizes.push_back(llvm::to_vector(dims.asArrayRef()));
  }
  // Every symbol is some argument's size.
  for (int64_t k = 0; k < numSymbols; ++k)
    if (llvm::none_of(ArrayRef(signature.sizes).take_front(signature.args.size()),
                      [&](ArrayRef<int64_t> dims) {
                        return llvm::is_contained(dims, -1 - k);
                      }))
      return malformed();
  return std::optional<Signature>(std::move(signature));
}

} // namespace mlir::tad::abi

#endif // TAD_PASSES_ABI_ABI_H
