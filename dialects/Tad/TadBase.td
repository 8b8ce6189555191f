//===- TadBase.td - tad dialect, types and base classes ---*- tablegen -*-===//
#ifndef TAD_BASE
#define TAD_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "dialects/Tad/TadInterfaces.td"

def Tad_Dialect : Dialect {
  let name = "tad";
  let cppNamespace = "::mlir::tad";
  let summary = "Tensor ops with ATen names and semantics, for differentiation";
  let description = [{
    Each op implements one ATen overload: the op name is the ATen name with
    its overload (`tad.add.Tensor`, `tad.sum.dim_IntList`), tensor arguments
    are operands and the other schema arguments are attributes named as in
    the schema (`alpha`, `dim`, `keepdim`). Ops have value semantics on
    ranked tensors and infer their result types; dynamic sizes (`?`) are
    checked at run time where they must agree (docs/dynamic-shapes.md).
  }];
  // Attributes live in the attribute dictionary so that the rule binder can
  // build any op generically from its schema (OperationState + inference).
  let usePropertiesForAttributes = 0;
  let hasConstantMaterializer = 1;
  // Ops whose results hold no elements fold to empty constants.
  let hasCanonicalizer = 1;
}

// bf16 and f16 tensors hold data; their arithmetic is computed in f32
// (tad-widen-low-precision, docs/mixed-precision.md), as ATen does on CPU.
def Tad_Float : AnyTypeOf<[F32, F64, BF16, F16]>;
def Tad_FloatTensor : RankedTensorOf<[F32, F64, BF16, F16]>;
def Tad_AnyTensor : RankedTensorOf<[F32, F64, BF16, F16, I64, I32, I1]>;

// The ATen `Scalar`: stored as f64.
def Tad_ScalarAttr : TypedAttrBase<F64, "FloatAttr",
    And<[CPred<"::llvm::isa<::mlir::FloatAttr>($_self)">,
         CPred<"::llvm::cast<::mlir::FloatAttr>($_self).getType().isF64()">]>,
    "64-bit float attribute (ATen Scalar)"> {
  let returnType = [{ double }];
  let convertFromStorage = "$_self.getValueAsDouble()";
  let constBuilderCall = "$_builder.getF64FloatAttr($0)";
}

// Declared attributes only; tensor byte sizes within int64 (TadOps.h).
def Tad_OpInvariants : NativeOpTrait<"TadOpInvariants"> {
  let cppNamespace = "::mlir::OpTrait::tad";
}

// The tensor operands broadcast together (ATen broadcasting) and the result
// has their broadcast shape; tad-check-shapes checks the dynamic sizes of
// such operands against each other at run time.
def Tad_BroadcastingOperands : NativeOpTrait<"BroadcastingOperands"> {
  let cppNamespace = "::mlir::OpTrait::tad";
}

class Tad_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tad_Dialect, mnemonic, !listconcat(traits, [Tad_OpInvariants])>;

// An op implementing ATen `schema`. Pure, with inferred result types.
class Tad_AtenOp<string mnemonic, string schema, list<Trait> traits = []>
    : Tad_Op<mnemonic, !listconcat(traits, [Pure,
        DeclareOpInterfaceMethods<InferTypeOpInterface>,
        Tad_AtenOpInterface])> {
  string atenSchema = schema;
  code atenDecl = "static constexpr ::llvm::StringLiteral kAtenSchema = R\"tad(" # schema # ")tad\";";
  let extraClassDeclaration = atenDecl;
}

#endif // TAD_BASE
