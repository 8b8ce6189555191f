//===- ExportABI.cpp - entry points and metadata of the tad C ABI ---------===//
//
// Runs on the LLVM dialect, after the CPU pipeline lowered every exported
// function to the bare-pointer calling convention
//
//   llvm.func @f(%arg0: !llvm.ptr, ..., %out0: !llvm.ptr, ...)
//       attributes {tad.abi = {args = [...], results = [...]}}
//
// (one pointer per argument, then one per result, see compiler/Pipeline.cpp)
// and turns it into what runtime/include/tad/runtime.h promises:
//
//   - `_tad_impl_f`: the implementation, internal, pointers `noalias`;
//   - `_tad_packed_f`: internal, `void (ptr pointers)`, calls `_tad_impl_f`
//     with the pointers of an array;
//   - `f`: the exported entry point
//       i32 f(ptr args, i64 num_args, ptr results, i64 num_results)
//     which returns `__tad_check_call(&info_f, args, ...)` if that is non-zero
//     and otherwise stores each tad_tensor's `data` pointer in an array and
//     returns `__tad_run(&info_f, _tad_packed_f, array)`: the runtime runs
//     the implementation and returns 0, or TAD_ERROR_MEMORY if one of its
//     temporaries could not be allocated (runtime/src/cpu/call.c);
//   - `__tad_module`: a hidden constant tad_module_info describing every
//     entry point (names, dtypes, ranks, shapes), read by the runtime's
//     tad_module_info().
//
// With `device=cuda` (or `emulated`), the implementation runs on device
// pointers: the entry point checks the call with __tad_check_device_call
// (tensors may be flagged TAD_MEMORY_DEVICE), then
//
//     void *device[num_args + num_results];
//     status = __tad_cuda_enter(&info_f, args, results, device);
//     if (status) return status;
//     status = __tad_run(&info_f, _tad_packed_f, device);
//     exited = __tad_cuda_exit(&info_f, args, results, device);
//     return status ? status : exited;
//
// (runtime/include/tad/runtime_internal.h).
//
// Every other function definition becomes internal.
//
//===----------------------------------------------------------------------===//
#include "passes/ABI/ABI.h"
#include "passes/ABI/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADEXPORTABIPASS
#include "passes/ABI/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// One function to export.
struct ExportedFunction {
  LLVM::LLVMFuncOp impl;
  std::string name;
  tad::abi::Signature signature;
};

/// The LLVM types of the structs in runtime.h (x86-64 SysV layouts; the
/// default data layout gives the same offsets: pointers 8, i64 8, i32 4).
struct AbiTypes {
  explicit AbiTypes(MLIRContext *context)
      : ptr(LLVM::LLVMPointerType::get(context)),
        i32(IntegerType::get(context, 32)), i64(IntegerType::get(context, 64)),
        // tad_tensor {void *data; const int64_t *shape; int32_t rank, dtype;}
        tensor(LLVM::LLVMStructType::getLiteral(context, {ptr, ptr, i32, i32})),
        // tad_tensor_type {int32_t dtype, rank; const int64_t *shape;}
        tensorType(LLVM::LLVMStructType::getLiteral(context, {i32, i32, ptr})),
        // tad_function_info {name, entry, num_args, num_results, args,
        // results}
        functionInfo(LLVM::LLVMStructType::getLiteral(
            context, {ptr, ptr, i32, i32, ptr, ptr})),
        // tad_module_info {abi_version, num_functions, functions,
        // tad_version}
        moduleInfo(
            LLVM::LLVMStructType::getLiteral(context, {i32, i32, ptr, ptr})),
        // int32_t entry(const tad_tensor *, int64_t, tad_tensor *, int64_t)
        entry(LLVM::LLVMFunctionType::get(i32, {ptr, i64, ptr, i64})),
        // int32_t __tad_check_call(const tad_function_info *, <entry args>)
        checkCall(LLVM::LLVMFunctionType::get(i32, {ptr, ptr, i64, ptr, i64})),
        // void packed(void *const *pointers)
        packed(LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                           {ptr})),
        // int32_t __tad_run(const tad_function_info *, tad_packed_impl,
        //                   void *const *pointers)
        run(LLVM::LLVMFunctionType::get(i32, {ptr, ptr, ptr})) {}

  Type ptr, i32, i64;
  LLVM::LLVMStructType tensor, tensorType, functionInfo, moduleInfo;
  LLVM::LLVMFunctionType entry, checkCall, packed, run;
};

/// `container` with `value` inserted at `position`.
Value insert(OpBuilder &b, Location loc, Value container, Value value,
             int64_t position) {
  return LLVM::InsertValueOp::create(b, loc, container, value,
                                     ArrayRef<int64_t>{position});
}

Value constantI32(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), value);
}

struct TadExportABIPass : tad::impl::TadExportABIPassBase<TadExportABIPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// Creates an internal constant global initialized by `build`, which emits
  /// the value at the builder's insertion point and returns it.
  LLVM::GlobalOp
  createConstantGlobal(OpBuilder &b, Location loc, StringRef name, Type type,
                       LLVM::Linkage linkage,
                       function_ref<Value(OpBuilder &, Location)> build);

  /// Emits the tad_tensor_type array `prefix` describing `tensors` (and
  /// their shape arrays); returns null for an empty list.
  LLVM::GlobalOp emitTensorTypeTable(OpBuilder &b, Location loc,
                                     StringRef prefix,
                                     ArrayRef<RankedTensorType> tensors,
                                     ArrayRef<SmallVector<int64_t>> dims);

  /// The runtime functions an entry point calls.
  struct RuntimeFunctions {
    LLVM::LLVMFuncOp checkCall, run;
    /// Device targets only.
    LLVM::LLVMFuncOp enter, exit;
  };

  /// Emits `_tad_packed_<fn.name>`, which calls fn.impl with the pointers
  /// of the array it is passed.
  LLVM::LLVMFuncOp emitPacked(OpBuilder &b, const ExportedFunction &fn);

  /// Emits the entry point `fn.name` that checks the call and runs fn.impl
  /// through `packed`.
  void emitEntry(OpBuilder &b, const ExportedFunction &fn,
                 LLVM::LLVMFuncOp packed, LLVM::GlobalOp functionTable,
                 unsigned index, const RuntimeFunctions &runtime);

  /// The runtime function `name` of type `type`, declared unless the module
  /// has it; null (after an error) if the module has another `name`.
  LLVM::LLVMFuncOp getOrDeclare(OpBuilder &b, Location loc, StringRef name,
                                LLVM::LLVMFunctionType type);

  std::optional<AbiTypes> types;
  std::optional<SymbolTable> symbols;
};

LLVM::GlobalOp TadExportABIPass::createConstantGlobal(
    OpBuilder &b, Location loc, StringRef name, Type type,
    LLVM::Linkage linkage, function_ref<Value(OpBuilder &, Location)> build) {
  auto global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                       linkage, name, Attribute());
  OpBuilder::InsertionGuard guard(b);
  b.createBlock(&global.getInitializerRegion());
  LLVM::ReturnOp::create(b, loc, build(b, loc));
  symbols->insert(global);
  return global;
}

LLVM::GlobalOp
TadExportABIPass::emitTensorTypeTable(OpBuilder &b, Location loc,
                                      StringRef prefix,
                                      ArrayRef<RankedTensorType> tensors,
                                      ArrayRef<SmallVector<int64_t>> dims) {
  if (tensors.empty())
    return nullptr;

  // One constant i64 array per non-scalar shape.
  SmallVector<LLVM::GlobalOp> shapes;
  for (auto [index, tensor] : llvm::enumerate(tensors)) {
    if (tensor.getRank() == 0) {
      shapes.push_back(nullptr);
      continue;
    }
    auto shapeType = RankedTensorType::get({tensor.getRank()}, b.getI64Type());
    auto arrayType = LLVM::LLVMArrayType::get(types->i64, tensor.getRank());
    auto shape = LLVM::GlobalOp::create(
        b, loc, arrayType, /*isConstant=*/true, LLVM::Linkage::Internal,
        (prefix + "_" + Twine(index) + "_shape").str(),
        DenseElementsAttr::get(shapeType, ArrayRef(dims[index])));
    symbols->insert(shape);
    shapes.push_back(shape);
  }

  auto tableType = LLVM::LLVMArrayType::get(types->tensorType, tensors.size());
  return createConstantGlobal(
      b, loc, prefix, tableType, LLVM::Linkage::Internal,
      [&](OpBuilder &b, Location loc) -> Value {
        Value table = LLVM::UndefOp::create(b, loc, tableType);
        for (auto [index, tensor] : llvm::enumerate(tensors)) {
          auto dtype = *tad::abi::getDType(tensor.getElementType());
          Value entry = LLVM::UndefOp::create(b, loc, types->tensorType);
          Value dtypeValue = constantI32(b, loc, static_cast<int32_t>(dtype));
          Value rank = constantI32(b, loc, tensor.getRank());
          Value shape =
              shapes[index]
                  ? Value(LLVM::AddressOfOp::create(b, loc, shapes[index]))
                  : Value(LLVM::ZeroOp::create(b, loc, types->ptr));
          entry = insert(b, loc, entry, dtypeValue, 0);
          entry = insert(b, loc, entry, rank, 1);
          entry = insert(b, loc, entry, shape, 2);
          table = insert(b, loc, table, entry, index);
        }
        return table;
      });
}

LLVM::LLVMFuncOp
TadExportABIPass::getOrDeclare(OpBuilder &b, Location loc, StringRef name,
                               LLVM::LLVMFunctionType type) {
  Operation *existing = symbols->lookup(name);
  if (!existing) {
    auto fn = LLVM::LLVMFuncOp::create(b, loc, name, type);
    symbols->insert(fn);
    return fn;
  }
  auto fn = dyn_cast<LLVM::LLVMFuncOp>(existing);
  if (!fn) {
    existing->emitError("symbol '") << name << "' is reserved for the tad runtime";
    return nullptr;
  }
  if (fn.getFunctionType() != type) {
    fn.emitError("'") << name << "' has type " << fn.getFunctionType()
                      << ", expected " << type;
    return nullptr;
  }
  return fn;
}

LLVM::LLVMFuncOp TadExportABIPass::emitPacked(OpBuilder &b,
                                              const ExportedFunction &fn) {
  LLVM::LLVMFuncOp impl = fn.impl;
  Location loc = impl.getLoc();
  auto packed = LLVM::LLVMFuncOp::create(
      b, loc, (tad::abi::kPackedPrefix + fn.name).str(), types->packed,
      LLVM::Linkage::Internal);
  symbols->insert(packed);
  OpBuilder::InsertionGuard guard(b);
  Block *body = packed.addEntryBlock(b);
  b.setInsertionPointToEnd(body);
  // The array holds the pointers, then the symbols' sizes (emitEntry); the
  // implementation takes the sizes first.
  size_t numSymbols = fn.signature.symbols.size();
  size_t numPointers = impl.getNumArguments() - numSymbols;
  auto load = [&](size_t i) -> Value {
    Value slot = LLVM::GEPOp::create(
        b, loc, types->ptr, types->ptr, body->getArgument(0),
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)},
        LLVM::GEPNoWrapFlags::inbounds);
    return LLVM::LoadOp::create(b, loc, types->ptr, slot);
  };
  SmallVector<Value> operands;
  for (size_t k = 0; k < numSymbols; ++k)
    operands.push_back(
        LLVM::PtrToIntOp::create(b, loc, types->i64, load(numPointers + k)));
  for (size_t i = 0; i < numPointers; ++i)
    operands.push_back(load(i));
  LLVM::CallOp::create(b, loc, impl, operands);
  LLVM::ReturnOp::create(b, loc, ValueRange());
  return packed;
}

void TadExportABIPass::emitEntry(OpBuilder &b, const ExportedFunction &fn,
                                 LLVM::LLVMFuncOp packed,
                                 LLVM::GlobalOp functionTable, unsigned index,
                                 const RuntimeFunctions &runtime) {
  Location loc = LLVM::LLVMFuncOp(fn.impl).getLoc();
  auto entry = LLVM::LLVMFuncOp::create(b, loc, fn.name, types->entry);
  symbols->insert(entry);

  OpBuilder::InsertionGuard guard(b);
  Block *checkBlock = entry.addEntryBlock(b);
  Block *runBlock = b.createBlock(&entry.getBody());
  Block *failBlock = b.createBlock(&entry.getBody());
  Value args = checkBlock->getArgument(0), numArgs = checkBlock->getArgument(1);
  Value results = checkBlock->getArgument(2),
        numResults = checkBlock->getArgument(3);

  // status = __tad_check_call(&functions[index], args, ...); if (status)
  // return status;
  b.setInsertionPointToEnd(checkBlock);
  Value table = LLVM::AddressOfOp::create(b, loc, functionTable);
  Value info = LLVM::GEPOp::create(
      b, loc, types->ptr, functionTable.getGlobalType(), table,
      ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(index)},
      LLVM::GEPNoWrapFlags::inbounds);
  size_t numPointers = fn.signature.args.size() + fn.signature.results.size();
  size_t numSymbols = fn.signature.symbols.size();
  // void *pointers[num_args + num_results (+ num_symbols)]: the
  // implementation's pointers, filled below or, on a device, by the device
  // runtime; then the sizes of dynamic signatures' symbols.
  Value count = LLVM::ConstantOp::create(
      b, loc, types->i64, std::max<int64_t>(1, numPointers + numSymbols));
  Value pointers =
      LLVM::AllocaOp::create(b, loc, types->ptr, types->ptr, count);
  Value status =
      LLVM::CallOp::create(b, loc, runtime.checkCall,
                           ValueRange{info, args, numArgs, results, numResults})
          .getResult();
  Value zero = constantI32(b, loc, 0);
  Value ok =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, status, zero);
  LLVM::CondBrOp::create(b, loc, ok, runBlock, failBlock);

  b.setInsertionPointToEnd(failBlock);
  LLVM::ReturnOp::create(b, loc, status);

  b.setInsertionPointToEnd(runBlock);
  unsigned slotIndex = 0;
  // Pointer field `field` (0: data, 1: shape) of tad_tensor `i` of `tensors`.
  auto loadField = [&](Value tensors, int32_t i, int32_t field) -> Value {
    Value address = LLVM::GEPOp::create(b, loc, types->ptr, types->tensor,
                                        tensors, ArrayRef<LLVM::GEPArg>{i, field},
                                        LLVM::GEPNoWrapFlags::inbounds);
    return LLVM::LoadOp::create(b, loc, types->ptr, address);
  };
  auto storeSlot = [&](Value value) {
    Value slot = LLVM::GEPOp::create(
        b, loc, types->ptr, types->ptr, pointers,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(slotIndex++)},
        LLVM::GEPNoWrapFlags::inbounds);
    LLVM::StoreOp::create(b, loc, value, slot);
  };
  // Each symbol's size, from the argument dimension that defines it (the
  // boundary check has bound the others to it), as a pointer-sized slot
  // after the tensors' ones.
  auto storeSymbols = [&]() {
    slotIndex = numPointers;
    for (size_t k = 0; k < numSymbols; ++k) {
      auto [arg, dim] = fn.signature.symbolSource(k);
      Value shape = loadField(args, arg, 1);
      Value sizeAddress = LLVM::GEPOp::create(
          b, loc, types->ptr, types->i64, shape,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(dim)},
          LLVM::GEPNoWrapFlags::inbounds);
      Value size = LLVM::LoadOp::create(b, loc, types->i64, sizeAddress);
      storeSlot(LLVM::IntToPtrOp::create(b, loc, types->ptr, size));
    }
  };

  Value packedAddress = LLVM::AddressOfOp::create(b, loc, packed);
  if (runtime.enter) {
    // status = enter(&functions[index], args, results, device); if (status)
    // return status; status = __tad_run(&functions[index], packed, device);
    // exited = exit(...); return status ? status : exited;
    Value entered =
        LLVM::CallOp::create(b, loc, runtime.enter,
                             ValueRange{info, args, results, pointers})
            .getResult();
    Block *implBlock = b.createBlock(&entry.getBody());
    Block *enterFailBlock = b.createBlock(&entry.getBody());
    LLVM::ReturnOp::create(b, loc, entered);
    b.setInsertionPointToEnd(runBlock);
    Value enteredOk =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, entered, zero);
    LLVM::CondBrOp::create(b, loc, enteredOk, implBlock, enterFailBlock);
    b.setInsertionPointToEnd(implBlock);
    storeSymbols();
    Value ran = LLVM::CallOp::create(
                    b, loc, runtime.run,
                    ValueRange{info, packedAddress, pointers})
                    .getResult();
    Value exited =
        LLVM::CallOp::create(b, loc, runtime.exit,
                             ValueRange{info, args, results, pointers})
            .getResult();
    Value ranOk =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, ran, zero);
    LLVM::ReturnOp::create(
        b, loc, LLVM::SelectOp::create(b, loc, ranOk, exited, ran));
    return;
  }

  // void *pointers[] = {args[0].data, ..., results[0].data, ..., sizes...};
  // return __tad_run(&functions[index], packed, pointers);
  for (size_t i = 0; i < fn.signature.args.size(); ++i)
    storeSlot(loadField(args, i, 0));
  for (size_t i = 0; i < fn.signature.results.size(); ++i)
    storeSlot(loadField(results, i, 0));
  storeSymbols();
  LLVM::ReturnOp::create(
      b, loc,
      LLVM::CallOp::create(b, loc, runtime.run,
                           ValueRange{info, packedAddress, pointers})
          .getResult());
}

void TadExportABIPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *context = &getContext();
  types.emplace(context);
  symbols.emplace(module);

  // Collect the functions to export, in module order.
  SmallVector<ExportedFunction, 0> exported;
  for (auto fn : module.getOps<LLVM::LLVMFuncOp>()) {
    FailureOr<std::optional<tad::abi::Signature>> signature =
        tad::abi::readSignature(fn);
    if (failed(signature))
      return signalPassFailure();
    if (!*signature)
      continue;
    if (fn.isExternal()) {
      fn.emitError("function '")
          << fn.getSymName() << "' has a '" << tad::abi::kSignatureAttrName
          << "' signature but no body";
      return signalPassFailure();
    }
    // The bare-pointer convention: void f(i64 symbol..., ptr arg...,
    // ptr result...) (symbols: tad-bind-dynamic-sizes).
    LLVM::LLVMFunctionType type = fn.getFunctionType();
    size_t numPointers =
        (*signature)->args.size() + (*signature)->results.size();
    size_t numSymbols = (*signature)->symbols.size();
    ArrayRef<Type> params = type.getParams();
    bool barePointers =
        isa<LLVM::LLVMVoidType>(type.getReturnType()) &&
        params.size() == numSymbols + numPointers &&
        llvm::all_of(params.take_front(numSymbols),
                     [](Type t) { return t.isInteger(64); }) &&
        llvm::all_of(params.drop_front(numSymbols),
                     llvm::IsaPred<LLVM::LLVMPointerType>);
    if (!barePointers) {
      InFlightDiagnostic diag = fn.emitError("function '");
      diag << fn.getSymName() << "' has type " << type
           << "; expected the bare-pointer convention with ";
      if (numSymbols)
        diag << numSymbols << " sizes (i64, first) and ";
      diag << numPointers
           << " pointers (arguments, then results) and no return value";
      return signalPassFailure();
    }
    exported.push_back({fn, fn.getSymName().str(), std::move(**signature)});
  }

  for (StringRef reserved :
       {StringRef(tad::abi::kModuleInfoSymbol), StringRef("__tad_functions")}) {
    if (Operation *existing = symbols->lookup(reserved)) {
      existing->emitError("symbol '")
          << reserved << "' is reserved for tad-export-abi (did it run twice?)";
      return signalPassFailure();
    }
  }

  if (device != "" && device != "cuda" && device != "emulated") {
    module.emitError("tad-export-abi: unknown device '")
        << device << "'; expected cuda or emulated";
    return signalPassFailure();
  }
  // The runtime's check (and, on a device, the staging around the
  // implementation); declared unless the module already has them.
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  RuntimeFunctions runtime;
  runtime.checkCall = getOrDeclare(b, loc,
                                   device.empty()
                                       ? tad::abi::kCheckCallSymbol
                                       : tad::abi::kCheckDeviceCallSymbol,
                                   types->checkCall);
  runtime.run = getOrDeclare(b, loc, tad::abi::kRunSymbol, types->run);
  if (!runtime.checkCall || !runtime.run)
    return signalPassFailure();
  if (!device.empty()) {
    // int32_t (const tad_function_info *, const tad_tensor *args,
    //          tad_tensor *results, void **device)
    auto type = LLVM::LLVMFunctionType::get(
        types->i32, {types->ptr, types->ptr, types->ptr, types->ptr});
    std::string prefix = "__tad_" + device;
    runtime.enter = getOrDeclare(b, loc, prefix + "_enter", type);
    runtime.exit = getOrDeclare(b, loc, prefix + "_exit", type);
    if (!runtime.enter || !runtime.exit)
      return signalPassFailure();
  }

  // Rename each implementation out of the way of its entry point.
  auto noAlias =
      StringAttr::get(context, LLVM::LLVMDialect::getNoAliasAttrName());
  for (ExportedFunction &fn : exported) {
    std::string implName = (tad::abi::kImplPrefix + fn.name).str();
    std::string packedName = (tad::abi::kPackedPrefix + fn.name).str();
    for (StringRef name : {StringRef(implName), StringRef(packedName)}) {
      if (Operation *existing = symbols->lookup(name)) {
        existing->emitError("symbol '")
            << name << "' clashes with the implementation of '" << fn.name
            << "'";
        return signalPassFailure();
      }
    }
    if (failed(symbols->rename(fn.impl, implName)))
      return signalPassFailure();
    fn.impl->removeAttr(tad::abi::kSignatureAttrName);
    // Callers own distinct buffers (runtime.h): results never overlap
    // arguments or each other.
    for (unsigned i = fn.signature.symbols.size(),
                  e = fn.impl.getNumArguments();
         i < e; ++i)
      fn.impl.setArgAttr(i, noAlias, UnitAttr::get(context));
  }

  // Only the entry points (and the runtime's API) leave the object. tad's
  // own argument attributes (`tad.nondiff`, ...) have no meaning in LLVM IR.
  for (auto fn : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!fn.isExternal())
      fn.setLinkage(LLVM::Linkage::Internal);
    auto function = cast<FunctionOpInterface>(fn.getOperation());
    for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
      for (NamedAttribute attr : llvm::to_vector(function.getArgAttrs(i)))
        if (attr.getName().strref().starts_with("tad."))
          function.removeArgAttr(i, attr.getName());
  }

  // Per function: its name and its argument and result type tables.
  struct Tables {
    LLVM::GlobalOp name, args, results;
  };
  SmallVector<Tables> tables;
  for (auto [index, fn] : llvm::enumerate(exported)) {
    std::string prefix = ("__tad_fn" + Twine(index)).str();
    std::string text = fn.name;
    text.push_back('\0');
    auto name = LLVM::GlobalOp::create(
        b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), text.size()),
        /*isConstant=*/true, LLVM::Linkage::Internal, prefix + "_name",
        b.getStringAttr(text));
    symbols->insert(name);
    tables.push_back(
        {name,
         emitTensorTypeTable(
             b, loc, prefix + "_args", fn.signature.args,
             ArrayRef(fn.signature.sizes).take_front(fn.signature.args.size())),
         emitTensorTypeTable(
             b, loc, prefix + "_results", fn.signature.results,
             ArrayRef(fn.signature.sizes).drop_front(fn.signature.args.size()))});
  }

  // The tad_function_info array.
  auto addressOrNull = [&](OpBuilder &init, Location loc,
                           LLVM::GlobalOp global) -> Value {
    if (global)
      return LLVM::AddressOfOp::create(init, loc, global);
    return LLVM::ZeroOp::create(init, loc, types->ptr);
  };
  LLVM::GlobalOp functionTable;
  if (!exported.empty()) {
    auto functionTableType =
        LLVM::LLVMArrayType::get(types->functionInfo, exported.size());
    functionTable = createConstantGlobal(
        b, loc, "__tad_functions", functionTableType, LLVM::Linkage::Internal,
        [&](OpBuilder &init, Location loc) -> Value {
          Value table = LLVM::UndefOp::create(init, loc, functionTableType);
          for (auto [index, fn] : llvm::enumerate(exported)) {
            // The entry is created below; refer to it by name.
            Value entryAddress = LLVM::AddressOfOp::create(
                init, loc, types->ptr,
                FlatSymbolRefAttr::get(context, fn.name));
            Value fields[] = {
                addressOrNull(init, loc, tables[index].name),
                entryAddress,
                constantI32(init, loc, fn.signature.args.size()),
                constantI32(init, loc, fn.signature.results.size()),
                addressOrNull(init, loc, tables[index].args),
                addressOrNull(init, loc, tables[index].results),
            };
            Value info = LLVM::UndefOp::create(init, loc, types->functionInfo);
            for (auto [position, field] : llvm::enumerate(fields))
              info = insert(init, loc, info, field, position);
            table = insert(init, loc, table, info, index);
          }
          return table;
        });
  }

  for (auto [index, fn] : llvm::enumerate(exported))
    emitEntry(b, fn, emitPacked(b, fn), functionTable, index, runtime);

  // The release of tad that wrote the module, for the table.
  std::string versionText = tad::abi::kTadVersion.str();
  versionText.push_back('\0');
  auto version = LLVM::GlobalOp::create(
      b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), versionText.size()),
      /*isConstant=*/true, LLVM::Linkage::Internal, "__tad_version",
      b.getStringAttr(versionText));
  symbols->insert(version);

  // The module table: hidden, so that only the runtime's tad_module_info()
  // reaches it from outside the shared object.
  auto moduleInfo = createConstantGlobal(
      b, loc, tad::abi::kModuleInfoSymbol, types->moduleInfo,
      LLVM::Linkage::External, [&](OpBuilder &init, Location loc) -> Value {
        Value info = LLVM::UndefOp::create(init, loc, types->moduleInfo);
        info = insert(init, loc, info,
                      constantI32(init, loc, tad::abi::kAbiVersion), 0);
        info =
            insert(init, loc, info, constantI32(init, loc, exported.size()), 1);
        info = insert(init, loc, info, addressOrNull(init, loc, functionTable),
                      2);
        return insert(init, loc, info, addressOrNull(init, loc, version), 3);
      });
  moduleInfo.setVisibility_(LLVM::Visibility::Hidden);
  moduleInfo.setDsoLocal(true);
}

} // namespace
