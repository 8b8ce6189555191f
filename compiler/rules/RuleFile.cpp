//===- RuleFile.cpp - derivatives.yaml loader -----------------------------===//
//
// yaml-cpp reports errors by throwing; this file is the only one compiled with
// exceptions and converts every yaml-cpp exception into a diagnostic.
//
//===----------------------------------------------------------------------===//

#include "compiler/rules/RuleFile.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <exception>
#include <tuple>

using namespace mlir::tad::rules;
using llvm::failure;
using llvm::FailureOr;
using llvm::LogicalResult;
using llvm::SmallVector;
using llvm::StringRef;
using llvm::success;
using llvm::Twine;

mlir::Location SourceLoc::toLocation(mlir::MLIRContext *ctx) const {
  return mlir::FileLineColLoc::get(ctx, file, line, col);
}

SourceLoc Formula::locOf(size_t offset) const {
  SourceLoc l = loc;
  if (positions.empty()) {
    l.col += offset;
  } else {
    const auto &p = positions[std::min(offset, positions.size() - 1)];
    l.line = p.first;
    l.col = p.second;
  }
  return l;
}

const DerivativeKey *RuleEntry::findBackward(StringRef input) const {
  for (const DerivativeKey &k : backward)
    if (llvm::is_contained(k.names, input))
      return &k;
  return nullptr;
}

const DerivativeKey *RuleEntry::findForward(StringRef output) const {
  for (const DerivativeKey &k : forward)
    if (llvm::is_contained(k.names, output))
      return &k;
  return nullptr;
}

bool mlir::tad::rules::isKnownDispatchKey(StringRef key) {
  return llvm::StringSwitch<bool>(key)
      .Cases({"Default", "AutogradNestedTensor", "AutogradCPU", "AutogradCUDA",
              "AutogradHIP", "AutogradXLA", "AutogradMTIA", "AutogradMPS"},
             true)
      .Cases({"AutogradIPU", "AutogradXPU", "AutogradHPU", "AutogradVE",
              "AutogradLazy", "AutogradMeta", "AutogradPrivateUse1",
              "AutogradPrivateUse2", "AutogradPrivateUse3"},
             true)
      .Default(false);
}

bool mlir::tad::rules::isFormulaConstant(StringRef name) {
  if (llvm::is_contained({"M_PI", "M_LN2", "M_SQRT2", "M_2_SQRTPI"}, name))
    return true;
  if (name.consume_front("at::Reduction::"))
    return llvm::is_contained({"None", "Mean", "Sum"}, name);
  return name.contains("MemoryFormat::");
}

namespace {
/// Where a scalar's text starts and how it was written.
struct ScalarSource {
  SourceLoc loc;  // of the first character of the value (after a quote)
  size_t pos = 0; // byte position of that character in the file
  char quote = 0; // '"', '\'' or 0 for plain scalars
};

class Loader {
public:
  Loader(mlir::MLIRContext *ctx, StringRef contents, StringRef path,
         RuleFileReport *report)
      : ctx(ctx), contents(contents), path(path),
        report(report ? *report : ownReport) {}

  /// Loads into `out` everything that loads; fails if anything was reported.
  LogicalResult load(RuleFile &out);

private:
  //===--- Diagnostics ----------------------------------------------------===//

  SourceLoc locOf(const YAML::Mark &m) const {
    SourceLoc l;
    l.file = path.str();
    l.line = m.line >= 0 ? m.line + 1 : 1;
    l.col = m.column >= 0 ? m.column + 1 : 1;
    return l;
  }

  mlir::InFlightDiagnostic error(const SourceLoc &loc) {
    hadError = true;
    if (EntryReport *r = currentReport())
      ++r->errors;
    else
      ++report.fileErrors;
    return mlir::emitError(loc.toLocation(ctx));
  }

  /// The report of the item being loaded, or null between items.
  EntryReport *currentReport() {
    return currentItem < 0 ? nullptr : &report.entries[currentItem];
  }
  void countFormula(bool parsed) {
    if (EntryReport *r = currentReport()) {
      ++r->formulasTotal;
      r->formulasParsed += parsed;
    }
  }

  ScalarSource sourceOf(const YAML::Node &n) const {
    ScalarSource s;
    YAML::Mark m = n.Mark();
    s.loc = locOf(m);
    s.pos = m.pos >= 0 ? m.pos : 0;
    if (s.pos < contents.size() &&
        (contents[s.pos] == '"' || contents[s.pos] == '\'')) {
      s.quote = contents[s.pos];
      ++s.pos;
      ++s.loc.col;
    }
    return s;
  }

  /// Maps each byte offset of the scalar's value (0..size) back to the file
  /// by walking the raw text: line folds (a newline plus indentation became
  /// one space) and escapes are followed, so multi-line scalars map to the
  /// right line. Stops at `limit` offsets.
  std::vector<std::pair<unsigned, unsigned>>
  positionsInScalar(const ScalarSource &src, StringRef value,
                    size_t limit) const {
    std::vector<std::pair<unsigned, unsigned>> positions;
    SourceLoc loc = src.loc;
    size_t raw = src.pos, v = 0;
    auto step = [&](size_t n) {
      for (size_t i = 0; i < n && raw < contents.size(); ++i, ++raw) {
        if (contents[raw] == '\n') {
          ++loc.line;
          loc.col = 1;
        } else {
          ++loc.col;
        }
      }
    };
    auto record = [&] {
      while (positions.size() <= v && positions.size() <= limit)
        positions.emplace_back(loc.line, loc.col);
    };
    record();
    while (v < limit && v < value.size() && raw < contents.size()) {
      char r = contents[raw];
      // Escapes first: "\x" and '' stand for one character of the value.
      if (src.quote == '"' && r == '\\') {
        step(2);
        ++v;
        record();
        continue;
      }
      if (src.quote == '\'' && r == '\'' && raw + 1 < contents.size() &&
          contents[raw + 1] == '\'') {
        step(2);
        ++v;
        record();
        continue;
      }
      if (r == value[v]) {
        step(1);
        ++v;
        record();
        continue;
      }
      if (llvm::isSpace(r)) {
        // A folded line break: skip the raw whitespace run; it stands for at
        // most one character of the value.
        bool sawNewline = false;
        while (raw < contents.size() && llvm::isSpace(contents[raw])) {
          sawNewline |= contents[raw] == '\n';
          step(1);
        }
        if (sawNewline && value[v] == ' ') {
          ++v;
          record();
        }
        continue;
      }
      break; // out of sync: best effort
    }
    return positions;
  }

  SourceLoc locInScalar(const ScalarSource &src, StringRef value,
                        size_t offset) const {
    std::vector<std::pair<unsigned, unsigned>> positions =
        positionsInScalar(src, value, offset);
    SourceLoc loc = src.loc;
    std::tie(loc.line, loc.col) = positions.back();
    return loc;
  }

  //===--- Entries --------------------------------------------------------===//

  /// Parses a scalar formula into `f`; reports errors.
  LogicalResult parseFormulaNode(const YAML::Node &n, Formula &f) {
    ScalarSource src = sourceOf(n);
    f.text = n.Scalar();
    f.loc = src.loc;
    std::string err;
    size_t errOffset = 0;
    FailureOr<ExprPtr> e = parseFormula(f.text, err, errOffset);
    countFormula(succeeded(e));
    if (failed(e)) {
      error(locInScalar(src, f.text, errOffset)) << err;
      return failure();
    }
    f.expr = std::move(*e);
    f.positions = positionsInScalar(src, f.text, f.text.size());
    return success();
  }

  /// The location of a sub-expression of a formula parsed by
  /// parseFormulaNode.
  SourceLoc locOfExpr(const Formula &f, const Expr &e) const {
    return f.locOf(e.offset);
  }

  FailureOr<Schema> parseSchemaNode(const YAML::Node &n) {
    ScalarSource src = sourceOf(n);
    std::string text = n.Scalar(), err;
    size_t errOffset = 0;
    FailureOr<Schema> s = parseSchema(text, err, &errOffset);
    if (failed(s)) {
      error(locInScalar(src, text, errOffset))
          << "invalid schema '" << text << "': " << err;
      return failure();
    }
    return s;
  }

  void loadHelper(const YAML::Node &item);
  void loadEntry(const YAML::Node &item);
  void loadOutputDifferentiability(const YAML::Node &key,
                                   const YAML::Node &value, RuleEntry &entry);
  /// Parses one formula block (the entry's own keys or a dispatch key's).
  void loadBlock(const std::vector<std::pair<YAML::Node, YAML::Node>> &keys,
                 RuleEntry &entry, std::vector<DerivativeKey> &backward,
                 std::vector<DerivativeKey> &forward);
  void checkBlock(const RuleEntry &entry,
                  const std::vector<DerivativeKey> &backward,
                  const std::vector<DerivativeKey> &forward);
  void checkIdentifiers(const RuleEntry &entry,
                        const std::vector<DerivativeKey> &backward,
                        const std::vector<DerivativeKey> &forward);
  void checkTupleArity(const DerivativeKey &key);
  /// Parses the formula values of `keys` only (for an entry whose schema
  /// failed): their errors are reported and they are counted.
  void parseValuesOnly(
      const std::vector<std::pair<YAML::Node, YAML::Node>> &keys);

  mlir::MLIRContext *ctx;
  StringRef contents;
  StringRef path;
  RuleFileReport ownReport;
  RuleFileReport &report;
  int currentItem = -1;
  bool hadError = false;
  RuleFile file;
};
} // namespace

void Loader::loadHelper(const YAML::Node &item) {
  HelperEntry helper;
  YAML::Node nameNode, formulaNode;
  for (auto it = item.begin(); it != item.end(); ++it) {
    std::string key = it->first.Scalar();
    if (key == "name") {
      nameNode.reset(it->second);
      helper.loc = locOf(it->first.Mark());
    } else if (key == "formula") {
      formulaNode.reset(it->second);
    } else {
      error(locOf(it->first.Mark()))
          << "unknown key '" << key << "' in helper definition";
    }
  }
  if (!nameNode.IsScalar()) {
    error(locOf(nameNode.Mark())) << "'name' must be a string";
    return;
  }
  if (!formulaNode.IsScalar()) {
    error(locOf(formulaNode.Mark())) << "'formula' must be a string";
    return;
  }
  FailureOr<Schema> sig = parseSchemaNode(nameNode);
  if (succeeded(sig))
    currentReport()->schemaParsed = true;
  if (failed(parseFormulaNode(formulaNode, helper.body)) || failed(sig))
    return;
  helper.signature = std::move(*sig);
  // The body sees the signature's arguments and the named constants.
  SmallVector<const Expr *> ids;
  collectFreeIdentifiers(*helper.body.expr, ids);
  for (const Expr *id : ids)
    if (helper.signature.findArgument(id->name) < 0 &&
        !isFormulaConstant(id->name))
      error(locOfExpr(helper.body, *id))
          << "unknown identifier '" << id->name << "' in helper '"
          << helper.signature.baseName
          << "': not an argument of the helper nor a named constant";
  currentReport()->index = file.helpers.size();
  file.helpers.push_back(std::move(helper));
}

void Loader::loadOutputDifferentiability(const YAML::Node &key,
                                         const YAML::Node &value,
                                         RuleEntry &entry) {
  if (!value.IsSequence()) {
    error(locOf(value.Mark()))
        << "'output_differentiability' must be a list of True/False";
    return;
  }
  bool hasCondition = false;
  for (const YAML::Node &v : value) {
    if (!v.IsScalar()) {
      error(locOf(v.Mark())) << "expected True, False or a condition string";
      return;
    }
    ScalarSource src = sourceOf(v);
    std::string text = v.Scalar();
    if (src.quote) {
      hasCondition = true;
      entry.outputDifferentiability.push_back(std::nullopt);
      entry.outputDifferentiabilityConditions.push_back(text);
      continue;
    }
    std::optional<bool> b = llvm::StringSwitch<std::optional<bool>>(text)
                                .Cases({"True", "true"}, true)
                                .Cases({"False", "false"}, false)
                                .Default(std::nullopt);
    if (!b) {
      error(src.loc) << "expected True or False in 'output_differentiability', "
                        "found '"
                     << text << "'";
      return;
    }
    entry.outputDifferentiability.push_back(*b);
    entry.outputDifferentiabilityConditions.emplace_back();
  }
  if (hasCondition && entry.outputDifferentiability.size() != 1)
    error(locOf(key.Mark()))
        << "a condition string in 'output_differentiability' is allowed only "
           "in a one-element list";
  if (entry.outputDifferentiability.size() > entry.schema.returns.size())
    error(locOf(key.Mark()))
        << "'output_differentiability' has "
        << entry.outputDifferentiability.size() << " elements but '"
        << entry.schema.fullName() << "' has " << entry.schema.returns.size()
        << " outputs";
}

static std::vector<std::string> splitNames(StringRef key) {
  SmallVector<StringRef> parts;
  key.split(parts, ',');
  std::vector<std::string> names;
  for (StringRef p : parts)
    names.push_back(p.trim().str());
  return names;
}

void Loader::loadBlock(
    const std::vector<std::pair<YAML::Node, YAML::Node>> &keys,
    RuleEntry &entry, std::vector<DerivativeKey> &backward,
    std::vector<DerivativeKey> &forward) {
  const Schema &schema = entry.schema;
  std::vector<std::string> outputs = schema.outputNames();
  llvm::StringSet<> namedReturns;
  for (const SchemaReturn &r : schema.returns)
    if (r.name)
      namedReturns.insert(*r.name);
  llvm::StringMap<FormulaKind> seenInputs, seenOutputs;

  for (const auto &[keyNode, valueNode] : keys) {
    DerivativeKey key;
    key.loc = locOf(keyNode.Mark());
    if (!keyNode.IsScalar()) {
      error(key.loc) << "expected a formula key";
      continue;
    }
    std::string keyText = keyNode.Scalar();
    key.names = splitNames(keyText);
    bool bad = false, isBackward = false;
    if (llvm::any_of(key.names,
                     [](const std::string &s) { return s.empty(); })) {
      error(key.loc) << "empty name in key '" << keyText << "'";
      bad = true;
    } else {
      isBackward = schema.findArgument(key.names.front()) >= 0;
    }
    for (const std::string &name : key.names) {
      if (bad)
        break; // an empty name: the other checks would only add noise
      bool isInput = schema.findArgument(name) >= 0;
      bool isOutput = llvm::is_contained(outputs, name);
      if (isInput && namedReturns.contains(name)) {
        error(key.loc) << "'" << name << "' is both an input and an output of '"
                       << schema.fullName() << "'";
        bad = true;
      } else if (isBackward && !isInput) {
        error(key.loc) << "'" << name << "' is not an input of '"
                       << schema.fullName() << "'";
        bad = true;
      } else if (!isBackward && !isOutput) {
        if (isInput)
          error(key.loc) << "key '" << keyText
                         << "' mixes outputs and inputs of '"
                         << schema.fullName() << "'";
        else
          error(key.loc) << "'" << name << "' is neither an input nor an "
                         << "output of '" << schema.fullName() << "'";
        bad = true;
      }
    }
    if (!valueNode.IsScalar()) {
      error(locOf(valueNode.Mark()))
          << "formula for '" << keyText << "' must be a string";
      continue;
    }
    // The formula is parsed (and counted) even under a bad key, so that its
    // own errors are reported too.
    std::string value = StringRef(valueNode.Scalar()).trim().str();
    key.kind = llvm::StringSwitch<FormulaKind>(value)
                   .Case("non_differentiable", FormulaKind::NonDifferentiable)
                   .Case("auto_linear", FormulaKind::AutoLinear)
                   .Case("auto_element_wise", FormulaKind::AutoElementWise)
                   .Default(FormulaKind::Expression);
    if (key.kind == FormulaKind::Expression) {
      if (failed(parseFormulaNode(valueNode, key.formula)))
        continue;
      const Expr &e = *key.formula.expr;
      if ((e.isCall("not_implemented") || e.isCall("not_implemented_list")) &&
          !e.operands.empty() && e.operands[0]->kind == Expr::Kind::String) {
        key.kind = FormulaKind::NotImplemented;
        key.formula.text = e.operands[0]->name;
      }
    } else {
      if (key.kind != FormulaKind::NonDifferentiable)
        countFormula(/*parsed=*/true);
      key.formula.text = value;
      key.formula.loc = sourceOf(valueNode).loc;
    }
    if (bad)
      continue;
    if (isBackward && (key.kind == FormulaKind::AutoLinear ||
                       key.kind == FormulaKind::AutoElementWise)) {
      error(key.formula.loc)
          << "'" << value << "' is only allowed for output (forward) keys";
      continue;
    }
    if (!isBackward && key.kind == FormulaKind::NonDifferentiable) {
      error(key.formula.loc)
          << "'non_differentiable' is only allowed for input keys";
      continue;
    }
    if (key.kind == FormulaKind::NonDifferentiable && key.names.size() != 1) {
      error(key.formula.loc)
          << "'non_differentiable' key must name a single input";
      continue;
    }

    // Each input and output has at most one formula.
    auto &seen = isBackward ? seenInputs : seenOutputs;
    for (const std::string &name : key.names) {
      auto it = seen.find(name);
      if (it == seen.end())
        continue;
      bad = true;
      bool nonDiff = key.kind == FormulaKind::NonDifferentiable ||
                     it->second == FormulaKind::NonDifferentiable;
      if (nonDiff)
        error(key.loc) << "input '" << name
                       << "' is both non_differentiable and has a formula";
      else
        error(key.loc) << "'" << name << "' has more than one formula";
    }
    if (bad)
      continue;
    for (const std::string &name : key.names)
      seen[name] = key.kind;
    checkTupleArity(key);
    (isBackward ? backward : forward).push_back(std::move(key));
  }
  checkBlock(entry, backward, forward);
  checkIdentifiers(entry, backward, forward);
}

void Loader::checkTupleArity(const DerivativeKey &key) {
  if (key.kind != FormulaKind::Expression || !key.formula.expr)
    return;
  size_t n = key.names.size();
  // The values a formula can return: through ternaries, to std::tuple<...>()
  // and brace lists, whose arity is visible.
  SmallVector<const Expr *> results{key.formula.expr.get()};
  while (!results.empty()) {
    const Expr *e = results.pop_back_val();
    if (e->kind == Expr::Kind::Ternary) {
      results.push_back(e->operands[1].get());
      results.push_back(e->operands[2].get());
      continue;
    }
    size_t count = 0;
    if (e->isCall("std::tuple") && e->operands.empty())
      count = e->templateArgs.size();
    else if (e->kind == Expr::Kind::BraceList && n > 1)
      count = e->operands.size();
    else
      continue;
    if (count != n)
      error(locOfExpr(key.formula, *e))
          << "formula for '" << llvm::join(key.names, ", ") << "' returns "
          << count << (count == 1 ? " value" : " values") << " but the key names "
          << n << (n == 1 ? " input" : " inputs");
  }
  // grad_input_mask has one flag per name of the key.
  walkExpr(*key.formula.expr, [&](const Expr &e) {
    if (e.kind != Expr::Kind::Index ||
        !e.operands[0]->isIdentifier("grad_input_mask") ||
        e.operands[1]->kind != Expr::Kind::Integer)
      return;
    int64_t i = e.operands[1]->intValue();
    if (i < 0 || static_cast<size_t>(i) >= n)
      error(locOfExpr(key.formula, e))
          << "'grad_input_mask[" << i << "]' is out of range: the key '"
          << llvm::join(key.names, ", ") << "' names " << n
          << (n == 1 ? " input" : " inputs");
  });
}

void Loader::checkIdentifiers(const RuleEntry &entry,
                              const std::vector<DerivativeKey> &backward,
                              const std::vector<DerivativeKey> &forward) {
  const Schema &schema = entry.schema;
  // What each kind of formula sees (seeds_report 1.4).
  llvm::StringSet<> backwardScope, forwardScope;
  for (const SchemaArgument &arg : schema.arguments) {
    backwardScope.insert(arg.name);
    forwardScope.insert(arg.name);
    if (arg.type.isTensorLike()) {
      forwardScope.insert(arg.name + "_p");
      forwardScope.insert(arg.name + "_t");
    }
  }
  for (const std::string &out : schema.outputNames()) {
    backwardScope.insert(out);
    backwardScope.insert("grad_" + out);
    forwardScope.insert(out);
  }
  for (StringRef name : {"grad", "grads", "grad_input_mask", "retain_variables"})
    backwardScope.insert(name);
  if (schema.isInplace) {
    forwardScope.insert("original_self_p");
    forwardScope.insert("original_self_t");
  }
  if (StringRef(schema.baseName).starts_with("_foreach_")) {
    backwardScope.insert("i"); // grads[i], self[i], result[i]
    forwardScope.insert("i");
  }
  auto check = [&](const DerivativeKey &k, const llvm::StringSet<> &scope,
                   const llvm::StringSet<> &other, StringRef kind,
                   StringRef otherKind) {
    if (k.kind != FormulaKind::Expression || !k.formula.expr)
      return;
    SmallVector<const Expr *> ids;
    collectFreeIdentifiers(*k.formula.expr, ids);
    for (const Expr *id : ids) {
      if (scope.contains(id->name) || isFormulaConstant(id->name))
        continue;
      mlir::InFlightDiagnostic diag = error(locOfExpr(k.formula, *id));
      diag << "unknown identifier '" << id->name << "' in a " << kind
           << " formula of '" << schema.fullName() << "'";
      if (other.contains(id->name))
        diag << ": it is bound only in " << otherKind << " formulas";
      else
        diag << ": not an argument, output or gradient of the op, nor a "
                "named constant";
    }
  };
  for (const DerivativeKey &k : backward)
    check(k, backwardScope, forwardScope, "backward", "forward");
  for (const DerivativeKey &k : forward)
    check(k, forwardScope, backwardScope, "forward", "backward");
}

void Loader::checkBlock(const RuleEntry &entry,
                        const std::vector<DerivativeKey> &backward,
                        const std::vector<DerivativeKey> &forward) {
  const Schema &schema = entry.schema;
  size_t numReturns = schema.returns.size();

  auto hasExpr = [](const DerivativeKey &k) {
    return k.formula.expr && (k.kind == FormulaKind::Expression ||
                              k.kind == FormulaKind::NotImplemented);
  };

  // Metadata queries must use the symbolic forms.
  for (const auto *keys : {&backward, &forward}) {
    for (const DerivativeKey &k : *keys) {
      if (!hasExpr(k))
        continue;
      walkExpr(*k.formula.expr, [&](const Expr &e) {
        if (e.kind != Expr::Kind::MethodCall && e.kind != Expr::Kind::ArrowCall)
          return;
        size_t nargs = e.callArgs().size();
        StringRef replacement;
        if (e.name == "sizes" && nargs == 0)
          replacement = "sym_sizes()";
        else if (e.name == "strides" && nargs == 0)
          replacement = "sym_strides()";
        else if (e.name == "size" && nargs == 1)
          replacement = "sym_size(i)";
        if (replacement.empty())
          return;
        error(locOfExpr(k.formula, e))
            << "use '" << replacement << "' instead of '" << e.name
            << "(...)' in derivative formulas";
      });
    }
  }

  // Gradient usage in backward formulas: grad, grads[i], grad_<name>.
  llvm::StringSet<> namedGradNames;
  for (const SchemaReturn &r : schema.returns)
    if (r.name)
      namedGradNames.insert("grad_" + *r.name);
  bool usesGrad = false, usesNamedGrads = false;
  size_t numGradsUses = 0;
  SmallVector<int64_t> usedIndices;
  const DerivativeKey *firstKey = nullptr;
  for (const DerivativeKey &k : backward) {
    if (!hasExpr(k))
      continue;
    if (!firstKey)
      firstKey = &k;
    SmallVector<std::string> ids;
    collectIdentifiers(*k.formula.expr, ids);
    for (const std::string &id : ids) {
      usesGrad |= id == "grad";
      numGradsUses += id == "grads";
      usesNamedGrads |= namedGradNames.contains(id);
    }
    walkExpr(*k.formula.expr, [&](const Expr &e) {
      if (e.kind != Expr::Kind::Index ||
          !e.operands[0]->isIdentifier("grads") ||
          e.operands[1]->kind != Expr::Kind::Integer)
        return;
      int64_t i = e.operands[1]->intValue();
      usedIndices.push_back(i);
      if (i < 0 || static_cast<size_t>(i) >= numReturns)
        error(locOfExpr(k.formula, e))
            << "'grads[" << i << "]' is out of range: '" << schema.fullName()
            << "' has " << numReturns << " outputs";
    });
  }
  if (firstKey) {
    SourceLoc loc = firstKey->loc;
    if (usesGrad && numGradsUses > 0)
      error(loc) << "derivative formulas of '" << schema.fullName()
                 << "' mix 'grad' and 'grads'; use 'grads[0]' instead of "
                    "'grad'";
    else if (usesNamedGrads && (usesGrad || numGradsUses > 0))
      error(loc) << "derivative formulas of '" << schema.fullName()
                 << "' mix 'grad_<output>' with 'grad' or 'grads'; use one "
                    "way to name output gradients";
    else if (numGradsUses > 0 && numGradsUses == usedIndices.size() &&
             llvm::all_of(usedIndices, [](int64_t i) { return i == 0; }))
      error(loc) << "derivative formulas of '" << schema.fullName()
                 << "' use only 'grads[0]'; use 'grad' instead";
  }

  // Forward formulas.
  SmallVector<std::string> diffInputs;
  bool isForeach = StringRef(schema.baseName).starts_with("_foreach_");
  for (const DerivativeKey &k : backward)
    if (hasExpr(k))
      for (const std::string &name : k.names)
        diffInputs.push_back(name);
  for (const DerivativeKey &k : forward) {
    if (k.kind == FormulaKind::AutoElementWise) {
      if (schema.isInplace)
        error(k.formula.loc) << "'auto_element_wise' cannot be used for the "
                                "inplace operator '"
                             << schema.fullName() << "'";
      else if (diffInputs.size() != 1 || forward.size() != 1 ||
               k.names.size() != 1)
        error(k.formula.loc)
            << "'auto_element_wise' requires a single differentiable input "
               "and a single differentiable output";
      continue;
    }
    if (k.kind == FormulaKind::AutoLinear) {
      if (forward.size() != 1 || k.names.size() != 1)
        error(k.formula.loc) << "'auto_linear' requires a single "
                                "differentiable output";
      continue;
    }
    if (!hasExpr(k))
      continue;
    SmallVector<std::string> ids;
    collectIdentifiers(*k.formula.expr, ids);
    for (const std::string &in : diffInputs) {
      const SchemaArgument *arg = schema.getArgument(in);
      if (!arg || (arg->type.isList() && !isForeach))
        continue;
      if (llvm::is_contained(ids, in)) {
        const Expr *use = nullptr;
        walkExpr(*k.formula.expr, [&](const Expr &e) {
          if (!use && e.isIdentifier(in))
            use = &e;
        });
        error(locOfExpr(k.formula, *use))
            << "forward formula uses the input name '" << in
            << "', which is ambiguous; use '" << in << "_p' (primal) or '" << in
            << "_t' (tangent)";
      }
    }
  }
}

void Loader::loadEntry(const YAML::Node &item) {
  RuleEntry entry;
  YAML::Node nameNode, nameKey, diffValue, dispatchValue;
  std::optional<YAML::Node> diffKey, dispatchKey;
  std::vector<std::pair<YAML::Node, YAML::Node>> formulaKeys;
  for (auto it = item.begin(); it != item.end(); ++it) {
    if (!it->first.IsScalar()) {
      error(locOf(it->first.Mark())) << "expected a string key";
      continue;
    }
    std::string key = it->first.Scalar();
    if (key == "name") {
      nameKey.reset(it->first);
      nameNode.reset(it->second);
    } else if (key == "output_differentiability") {
      diffKey.emplace(it->first);
      diffValue.reset(it->second);
    } else if (key == "dispatch") {
      dispatchKey.emplace(it->first);
      dispatchValue.reset(it->second);
    } else {
      formulaKeys.emplace_back(it->first, it->second);
    }
  }
  entry.loc = locOf(nameKey.Mark());
  currentReport()->loc = entry.loc;
  auto parseDispatchValuesOnly = [&] {
    if (!dispatchKey || !dispatchValue.IsMap())
      return;
    for (auto it = dispatchValue.begin(); it != dispatchValue.end(); ++it) {
      if (!it->second.IsMap())
        continue;
      std::vector<std::pair<YAML::Node, YAML::Node>> block;
      for (auto f = it->second.begin(); f != it->second.end(); ++f)
        block.emplace_back(f->first, f->second);
      parseValuesOnly(block);
    }
  };
  if (!nameNode.IsScalar()) {
    error(locOf(nameNode.Mark())) << "'name' must be a schema string";
    parseValuesOnly(formulaKeys);
    parseDispatchValuesOnly();
    return;
  }
  FailureOr<Schema> schema = parseSchemaNode(nameNode);
  if (failed(schema)) {
    parseValuesOnly(formulaKeys);
    parseDispatchValuesOnly();
    return;
  }
  currentReport()->schemaParsed = true;
  entry.schema = std::move(*schema);
  for (StringRef reserved : {"grad_input_mask", "result"})
    if (entry.schema.findArgument(reserved) >= 0)
      error(sourceOf(nameNode).loc)
          << "schema '" << entry.schema.fullName()
          << "' may not have an argument named '" << reserved << "'";

  if (diffKey)
    loadOutputDifferentiability(*diffKey, diffValue, entry);

  if (dispatchKey) {
    if (!formulaKeys.empty())
      error(locOf(formulaKeys.front().first.Mark()))
          << "formula keys must go under 'dispatch' when it is present";
    if (!dispatchValue.IsMap()) {
      error(locOf(dispatchValue.Mark()))
          << "'dispatch' must map dispatch keys to formula blocks";
    } else {
      for (auto it = dispatchValue.begin(); it != dispatchValue.end(); ++it) {
        std::string dk = it->first.Scalar();
        SourceLoc dkLoc = locOf(it->first.Mark());
        if (!isKnownDispatchKey(dk)) {
          error(dkLoc) << "unknown dispatch key '" << dk << "'";
          continue;
        }
        if (!it->second.IsMap()) {
          error(locOf(it->second.Mark()))
              << "dispatch key '" << dk << "' must map to formula keys";
          continue;
        }
        std::vector<std::pair<YAML::Node, YAML::Node>> block;
        for (auto f = it->second.begin(); f != it->second.end(); ++f)
          block.emplace_back(f->first, f->second);
        if (dk == "Default") {
          loadBlock(block, entry, entry.backward, entry.forward);
        } else {
          entry.otherDispatchKeys.push_back(dk);
          std::vector<DerivativeKey> bw, fw;
          loadBlock(block, entry, bw, fw);
        }
      }
    }
  } else {
    loadBlock(formulaKeys, entry, entry.backward, entry.forward);
  }
  currentReport()->index = file.entries.size();
  file.entries.push_back(std::move(entry));
}

void Loader::parseValuesOnly(
    const std::vector<std::pair<YAML::Node, YAML::Node>> &keys) {
  for (const auto &[keyNode, valueNode] : keys) {
    if (!valueNode.IsScalar())
      continue;
    StringRef value = StringRef(valueNode.Scalar()).trim();
    if (value == "non_differentiable")
      continue;
    if (value == "auto_linear" || value == "auto_element_wise") {
      countFormula(/*parsed=*/true);
      continue;
    }
    Formula f;
    (void)parseFormulaNode(valueNode, f);
  }
}

LogicalResult Loader::load(RuleFile &out) {
  file.path = path.str();
  try {
    YAML::Node root = YAML::Load(contents.str());
    if (root.IsNull()) {
      out = std::move(file);
      return success();
    }
    if (!root.IsSequence()) {
      error(locOf(root.Mark()))
          << "a rule file must be a YAML sequence of entries";
      out = std::move(file);
      return failure();
    }
    for (const YAML::Node &item : root) {
      currentItem = -1;
      if (!item.IsMap()) {
        error(locOf(item.Mark())) << "expected a mapping for each rule entry";
        continue;
      }
      EntryReport itemReport;
      itemReport.loc = locOf(item.Mark());
      if (YAML::Node name = item["name"]; name && name.IsScalar())
        itemReport.name = name.Scalar();
      itemReport.isHelper = static_cast<bool>(item["formula"]);
      report.entries.push_back(std::move(itemReport));
      currentItem = report.entries.size() - 1;
      if (!item["name"]) {
        error(locOf(item.Mark())) << "rule entry has no 'name' key";
        continue;
      }
      if (item["formula"])
        loadHelper(item);
      else
        loadEntry(item);
    }
  } catch (const YAML::Exception &e) {
    currentItem = -1;
    error(locOf(e.mark)) << e.msg;
  } catch (const std::exception &e) {
    currentItem = -1;
    error(SourceLoc{path.str(), 1, 1})
        << "error while reading rule file: " << e.what();
  }
  currentItem = -1;
  out = std::move(file);
  return failure(hadError);
}

FailureOr<RuleFile> mlir::tad::rules::parseRuleFile(mlir::MLIRContext *ctx,
                                                    StringRef contents,
                                                    StringRef path) {
  RuleFile file;
  if (failed(Loader(ctx, contents, path, nullptr).load(file)))
    return failure();
  return std::move(file);
}

LogicalResult mlir::tad::rules::parseRuleFileInto(mlir::MLIRContext *ctx,
                                                  StringRef contents,
                                                  StringRef path,
                                                  RuleFile &file,
                                                  RuleFileReport *report) {
  return Loader(ctx, contents, path, report).load(file);
}

FailureOr<RuleFile> mlir::tad::rules::loadRuleFile(mlir::MLIRContext *ctx,
                                                   StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buf =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buf) {
    mlir::emitError(mlir::FileLineColLoc::get(ctx, path, 0, 0))
        << "cannot open rule file '" << path
        << "': " << buf.getError().message();
    return failure();
  }
  return parseRuleFile(ctx, (*buf)->getBuffer(), path);
}
