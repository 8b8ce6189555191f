//===- TadInterfaces.td - tad op interfaces ----------------*- tablegen -*-===//
#ifndef TAD_INTERFACES
#define TAD_INTERFACES

include "mlir/IR/OpBase.td"

// Every op knows the ATen schema it implements; the rule engine reads it to
// bind formula calls (e.g. `grad.sum(dims, true)`) to ops and attributes.
def Tad_AtenOpInterface : OpInterface<"AtenOpInterface"> {
  let cppNamespace = "::mlir::tad";
  let description = "An op that implements one ATen operator overload.";
  let methods = [
    StaticInterfaceMethod<"Returns the ATen function schema of this op.",
      "::llvm::StringRef", "getAtenSchema", (ins), [{}],
      [{ return ConcreteOp::kAtenSchema; }]>,
  ];
}

#endif // TAD_INTERFACES
