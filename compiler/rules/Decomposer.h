//===- Decomposer.h - composite ops by formula (decompositions.yaml) -*- C++ -*-===//
//
// Implements the Decompositions interface of the tad-decompose pass: an
// entry of a decomposition file is an op's ATen schema (`name:`) and a
// formula over the schema's arguments (`formula:`), written in the language
// of the derivative formulas and evaluated by the same Binder.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COMPILER_RULES_DECOMPOSER_H
#define TAD_COMPILER_RULES_DECOMPOSER_H

namespace mlir::tad::rules {

/// Installs the loader of rules/decompositions.yaml (plus `rules=` files)
/// that tad-decompose uses; registerDefaultRuleLoader calls it.
void registerDefaultDecompositionsLoader();

} // namespace mlir::tad::rules

#endif // TAD_COMPILER_RULES_DECOMPOSER_H
