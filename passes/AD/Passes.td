//===- Passes.td - tad differentiation passes --------------*- tablegen -*-===//
//
// Composite ops to their decompositions, then reverse- and forward-mode
// derivatives generated from derivative rules.
//
//===----------------------------------------------------------------------===//

#ifndef TAD_PASSES_AD
#define TAD_PASSES_AD

include "mlir/Pass/PassBase.td"

def TadDecomposePass : Pass<"tad-decompose", "::mlir::ModuleOp"> {
  let summary = "Replace composite ops by their decompositions (rules/decompositions.yaml)";
  let description = [{
    Every op with an entry in the decomposition files (a schema and a
    formula over other tad ops, evaluated by the rule engine's binder) is
    replaced by the formula's ops, until none is left. `keep` names ops to
    leave whole so that their own derivative rule applies (full names such
    as `_softmax` or `softmax.int`, or base names). tadc runs this pass
    before differentiation.
  }];
  let options = [
    ListOption<"keep", "keep", "std::string",
               "Ops to keep whole (not decomposed)">,
    ListOption<"ruleFiles", "rules", "std::string",
               "Extra decomposition files that add or override entries">,
  ];
  let dependentDialects = ["::mlir::tad::TadDialect"];
}

def TadVJPPass : Pass<"tad-vjp", "::mlir::ModuleOp"> {
  let summary = "Generate reverse-mode derivatives (@f_vjp) from derivative rules";
  let description = [{
    For each function @f named in `functions` (and for each private
    declaration @f_vjp whose @f is defined in the module), generates
    `@f_vjp(args..., cotangent per result...) -> (results..., gradient per
    differentiable arg...)` by applying the VJP formulas of the loaded rule
    files to the ops of @f in reverse order. Gradients reaching a broadcast
    operand are reduced to its shape (`sum_to`); values that cannot reach a
    differentiable argument get no adjoint (symbolic zeros). An `scf.for`
    is reversed by an `scf.for` over the descending iteration, the values
    its rules read stored per iteration in stacked tensors; an `scf.if` by
    an `scf.if` on the same condition (docs/loops.md). A checkpointed loop
    (`checkpoint`, or the loop's `tad.checkpoint` attribute: "store",
    "sqrt", a segment length k or "levels:L") stores its carried values
    every k iterations only and recomputes each segment in the reverse
    sweep; with "levels:L" each segment is segmented again, L levels deep.
    With "revolve:S" (binomial checkpointing) the reverse sweep keeps at
    most S snapshots of the carried values, placed by the binomial rule,
    and recomputes each iteration's carried values from the nearest one.
  }];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "Functions to differentiate">,
    ListOption<"ruleFiles", "rules", "std::string",
               "Extra derivative rule files that add or override rules">,
    Option<"checkpoint", "checkpoint", "std::string", /*default=*/"\"store\"",
           "How scf.for loops without a tad.checkpoint attribute keep forward "
           "values for the reverse sweep: 'store' (every iteration), 'sqrt' "
           "(checkpoints every ceil(sqrt(n)) iterations, segments recomputed), "
           "a segment length k, 'levels:L' (segments of segments, L levels) "
           "or 'revolve:S' (binomial checkpointing with S snapshots)">,
  ];
  let dependentDialects = ["::mlir::tad::TadDialect", "::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect", "::mlir::math::MathDialect"];
}

def TadJVPPass : Pass<"tad-jvp", "::mlir::ModuleOp"> {
  let summary = "Generate forward-mode derivatives (@f_jvp) from derivative rules";
  let description = [{
    For each function @f named in `functions` (and for each private
    declaration @f_jvp whose @f is defined), generates `@f_jvp(args...,
    tangent per differentiable arg...) -> (results..., tangent per result...)`
    using the rules' forward formulas (`result:`, `auto_element_wise`,
    `auto_linear`). `scf.for` and `scf.if` carry the tangents of their
    active values as extra iter_args and results (docs/loops.md).
  }];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "Functions to differentiate">,
    ListOption<"ruleFiles", "rules", "std::string",
               "Extra derivative rule files that add or override rules">,
  ];
  let dependentDialects = ["::mlir::tad::TadDialect", "::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // TAD_PASSES_AD
