//===- CheckSites.cpp - where a run-time check failed ---------------------===//
#include "passes/ABI/CheckSites.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

std::string tad::describeCheckSite(Operation *op) {
  std::string text = op->getName().getStringRef().str();
  auto describe = [&](FileLineColLoc loc) {
    text += (" at " + loc.getFilename().getValue() + ":" +
             Twine(loc.getLine()) + ":" + Twine(loc.getColumn()))
                .str();
  };
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    describe(loc);
  else if (auto fused = dyn_cast<FusedLoc>(op->getLoc()))
    for (Location inner : fused.getLocations())
      if (auto loc = dyn_cast<FileLineColLoc>(inner)) {
        describe(loc);
        break;
      }
  if (static_cast<int64_t>(text.size()) > kCheckSiteBytes - 1)
    text = "..." + text.substr(text.size() - (kCheckSiteBytes - 4));
  text.resize(kCheckSiteBytes, '\0');
  return text;
}

memref::GlobalOp tad::createCheckSite(ModuleOp module, SymbolTable &symbols,
                                      Operation *op, StringRef name) {
  return createCheckSite(module, symbols, op->getLoc(), describeCheckSite(op),
                         name);
}

memref::GlobalOp tad::createCheckSite(ModuleOp module, SymbolTable &symbols,
                                      Location loc, StringRef description,
                                      StringRef name) {
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  std::string text = description.take_front(kCheckSiteBytes - 1).str();
  text.resize(kCheckSiteBytes, '\0');
  auto bytesType = MemRefType::get({kCheckSiteBytes}, b.getI8Type());
  auto tensorType = RankedTensorType::get({kCheckSiteBytes}, b.getI8Type());
  auto global = memref::GlobalOp::create(
      b, loc, name, b.getStringAttr("private"), bytesType,
      DenseElementsAttr::get(
          tensorType,
          ArrayRef(reinterpret_cast<const int8_t *>(text.data()), text.size())),
      /*constant=*/true, /*alignment=*/nullptr);
  symbols.insert(global); // renamed to a unique symbol
  return global;
}

void tad::declareFailFunction(ModuleOp module, StringRef name,
                              TypeRange inputs) {
  if (module.lookupSymbol(name))
    return;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), name,
                                 b.getFunctionType(inputs, {}));
  fn.setPrivate();
}

bool tad::isRunTimeCheck(scf::IfOp op) {
  if (op.getNumResults() != 0 || !op.getElseRegion().empty())
    return false;
  bool fails = false;
  for (Operation &inner : op.getThenRegion().front()) {
    if (auto call = dyn_cast<func::CallOp>(inner)) {
      if (!call.getCallee().starts_with("__tad_fail_"))
        return false;
      fails = true;
    } else if (!isa<memref::GetGlobalOp, scf::YieldOp>(inner) &&
               !matchPattern(&inner, m_Constant())) {
      return false;
    }
  }
  return fails;
}
