//===- RuleChecker.cpp - check and explain rule files ---------------------===//
#include "compiler/rules/RuleChecker.h"

#include "compiler/rules/Binder.h"
#include "compiler/rules/BuiltinRules.h"
#include "compiler/rules/RuleSet.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <optional>

using namespace mlir;
using namespace mlir::tad::rules;
using Kind = Expr::Kind;

//===----------------------------------------------------------------------===//
// Static resolution
//===----------------------------------------------------------------------===//

/// Whether some overload of `schemas` can take `numArgs` positional
/// arguments (the rest defaulted).
template <typename Range>
static bool someArity(const Range &schemas, size_t numArgs) {
  for (const Schema *schema : schemas) {
    if (numArgs > schema->arguments.size())
      continue;
    bool ok = true;
    for (size_t i = numArgs; i < schema->arguments.size(); ++i)
      ok &= schema->arguments[i].defaultValue.has_value();
    if (ok)
      return true;
  }
  return false;
}

/// A condition that is known without the op.
static std::optional<bool> literalCondition(const Expr &e) {
  if (e.kind == Kind::Bool)
    return e.boolValue();
  if (e.kind == Kind::Call && e.operands.empty() &&
      (e.name == "GradMode::is_enabled" || e.name == "at::GradMode::is_enabled"))
    return true;
  if (e.kind == Kind::Unary && e.name == "!")
    if (std::optional<bool> x = literalCondition(*e.operands[0]))
      return !*x;
  return std::nullopt;
}

namespace {
struct Resolver {
  const Formula &formula;
  const OpCatalog &catalog;
  const HelperMap &helpers;
  llvm::function_ref<void(const SourceLoc &, const std::string &)> onProblem;
  bool ok = true;

  void problem(const Expr &e, const std::string &message) {
    ok = false;
    onProblem(formula.locOf(e.offset), message);
  }

  void visit(const Expr &e) {
    switch (e.kind) {
    case Kind::Ternary: {
      visit(*e.operands[0]);
      std::optional<bool> cond = literalCondition(*e.operands[0]);
      if (!cond || *cond)
        visit(*e.operands[1]);
      if (!cond || !*cond)
        visit(*e.operands[2]);
      return;
    }
    case Kind::Lambda:
      problem(e, "lambdas are not supported in tad formulas");
      return;
    case Kind::Call:
    case Kind::MethodCall:
    case Kind::ArrowCall:
      if (e.kind == Kind::Call &&
          (e.name == "not_implemented" || e.name == "not_implemented_list"))
        return; // an error when it runs, by design
      resolve(e);
      break;
    default:
      break;
    }
    for (const ExprPtr &op : e.operands)
      visit(*op);
  }

  void resolve(const Expr &e) {
    StringRef name = e.name;
    size_t numArgs = e.operands.size(); // a method's receiver is argument 0
    if (Binder::isBuiltinFunction(name))
      return;
    name.consume_front("at::");
    name.consume_front("std::");
    name.consume_back("_symint");
    if (const HelperEntry *helper = helpers.lookup(name)) {
      std::vector<const Schema *> sig{&helper->signature};
      if (!someArity(sig, numArgs))
        problem(e, "helper '" + name.str() + "' does not take " +
                       std::to_string(numArgs) + " arguments (signature '" +
                       helper->signature.str() + "')");
      return;
    }
    ArrayRef<const CatalogOp *> ops = catalog.overloads(name);
    if (ops.empty()) {
      problem(e, "unknown function '" + name.str() +
                     "': not a tad op, a helper or a builtin");
      return;
    }
    std::vector<const Schema *> schemas;
    for (const CatalogOp *op : ops)
      schemas.push_back(&op->schema);
    if (!someArity(schemas, numArgs))
      problem(e, "no overload of 'tad." + name.str() + "' takes " +
                     std::to_string(numArgs) + " arguments");
  }
};
} // namespace

bool mlir::tad::rules::resolveFormulaCalls(
    const Formula &formula, const OpCatalog &catalog, const HelperMap &helpers,
    llvm::function_ref<void(const SourceLoc &, const std::string &)>
        onProblem) {
  if (!formula.expr)
    return true;
  Resolver r{formula, catalog, helpers, onProblem};
  r.visit(*formula.expr);
  return r.ok;
}

//===----------------------------------------------------------------------===//
// --check-rules
//===----------------------------------------------------------------------===//

static std::string locString(const SourceLoc &loc) {
  return loc.file + ":" + std::to_string(loc.line) + ":" +
         std::to_string(loc.col);
}

RuleCheckResult mlir::tad::rules::checkRuleFiles(MLIRContext *ctx,
                                                 ArrayRef<std::string> paths) {
  RuleCheckResult result;
  // Collect diagnostics instead of printing them.
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    RuleCheckError error;
    // Binding errors stand at the op and name the rule formula in a note.
    auto loc = dyn_cast<FileLineColLoc>(diag.getLocation());
    for (const Diagnostic &note : diag.getNotes())
      if (!loc)
        loc = dyn_cast<FileLineColLoc>(note.getLocation());
    if (loc) {
      error.file = loc.getFilename().str();
      error.line = loc.getLine();
      error.col = loc.getColumn();
    }
    error.message = diag.str();
    result.errors.push_back(std::move(error));
    return success();
  });

  FailureOr<OpCatalog> catalog = OpCatalog::build(ctx);
  if (failed(catalog))
    return result;

  // Built-in helpers first, then every checked file's (later ones win).
  std::vector<std::unique_ptr<RuleFile>> files;
  std::vector<RuleFileReport> reports;
  HelperMap helpers;
  for (const BuiltinRuleFile &builtin : getBuiltinRuleFiles()) {
    auto file = std::make_unique<RuleFile>();
    size_t errors = result.errors.size();
    (void)parseRuleFileInto(ctx, builtin.contents, builtin.path, *file);
    result.errors.resize(errors); // the built-in files are checked by tests
    for (const HelperEntry &helper : file->helpers)
      helpers[helper.signature.baseName] = &helper;
    files.push_back(std::move(file));
  }
  size_t firstChecked = files.size();
  for (const std::string &path : paths) {
    auto file = std::make_unique<RuleFile>();
    RuleFileReport report;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buf =
        llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!buf) {
      result.errors.push_back(
          {path, 0, 0,
           "cannot open rule file '" + path + "': " + buf.getError().message()});
    } else {
      (void)parseRuleFileInto(ctx, (*buf)->getBuffer(), path, *file, &report);
    }
    file->path = path;
    for (const HelperEntry &helper : file->helpers)
      helpers[helper.signature.baseName] = &helper;
    files.push_back(std::move(file));
    reports.push_back(std::move(report));
  }

  for (size_t f = firstChecked; f < files.size(); ++f) {
    const RuleFile &file = *files[f];
    for (const EntryReport &report : reports[f - firstChecked].entries) {
      CheckedEntry checked;
      checked.file = file.path;
      checked.report = report;
      result.schemasParsed += report.schemaParsed;
      result.formulasTotal += report.formulasTotal;
      result.formulasParsed += report.formulasParsed;
      auto problem = [&](const SourceLoc &loc, const std::string &message) {
        checked.problems.push_back(locString(loc) + ": " + message);
      };
      if (report.isHelper) {
        // A helper is applicable when its body resolves.
        if (report.index >= 0)
          checked.applicable = resolveFormulaCalls(
              file.helpers[report.index].body, *catalog, helpers, problem);
        result.rulesApplicable += checked.applicable;
        result.entries.push_back(std::move(checked));
        continue;
      }
      if (report.index < 0) {
        result.entries.push_back(std::move(checked));
        continue;
      }
      const RuleEntry &entry = file.entries[report.index];
      std::string name = entry.schema.fullName();
      if (const CatalogOp *op = catalog->lookup(name)) {
        checked.opKnown = op->schema.str() == entry.schema.str();
        checked.opSchemaDiffers = !checked.opKnown;
        checked.opSchema = op->schema.str();
      }
      for (const std::string &key : entry.otherDispatchKeys)
        checked.notes.push_back("dispatch key '" + key +
                                "' accepted; tad uses 'Default'");
      for (const std::string &cond : entry.outputDifferentiabilityConditions)
        if (!cond.empty())
          checked.notes.push_back("output_differentiability condition '" +
                                  cond +
                                  "' is unsupported (the output is treated "
                                  "as differentiable)");
      bool resolved = true;
      for (const auto *keys : {&entry.backward, &entry.forward})
        for (const DerivativeKey &key : *keys)
          if (key.kind == FormulaKind::Expression)
            resolved &=
                resolveFormulaCalls(key.formula, *catalog, helpers, problem);
      if (!checked.opKnown)
        checked.problems.insert(
            checked.problems.begin(),
            checked.opSchemaDiffers
                ? "'tad." + name + "' implements '" + checked.opSchema +
                      "', not '" + entry.schema.str() + "'"
                : "tad has no op 'tad." + name + "'");
      checked.applicable = checked.opKnown && resolved && report.errors == 0;
      result.opsKnown += checked.opKnown;
      result.rulesApplicable += checked.applicable;
      result.entries.push_back(std::move(checked));
    }
  }
  return result;
}

void mlir::tad::rules::printRuleCheck(const RuleCheckResult &result,
                                      llvm::raw_ostream &os) {
  for (const CheckedEntry &e : result.entries) {
    const EntryReport &r = e.report;
    os << locString(r.loc) << ": " << (r.isHelper ? "helper " : "")
       << (r.name.empty() ? "<no name>" : r.name) << "\n";
    os << "  schema: " << (r.schemaParsed ? "parsed" : "error")
       << "; formulas: " << r.formulasParsed << "/" << r.formulasTotal
       << " parsed";
    if (!r.isHelper)
      os << "; op: "
         << (e.opKnown            ? "known"
             : e.opSchemaDiffers ? "schema differs"
                                 : "not in tad");
    os << "; " << (e.applicable ? "applicable" : "not applicable");
    if (r.errors)
      os << "; " << r.errors << (r.errors == 1 ? " error" : " errors");
    os << "\n";
    for (const std::string &p : e.problems)
      os << "    " << p << "\n";
    for (const std::string &n : e.notes)
      os << "    note: " << n << "\n";
  }
  for (const RuleCheckError &err : result.errors)
    os << err.file << ":" << err.line << ":" << err.col
       << ": error: " << err.message << "\n";
  os << "entries: " << result.entries.size()
     << ", schemas parsed: " << result.schemasParsed
     << ", formulas parsed: " << result.formulasParsed << "/"
     << result.formulasTotal << ", ops known: " << result.opsKnown
     << ", rules applicable: " << result.rulesApplicable
     << ", errors: " << result.errors.size() << "\n";
}

void mlir::tad::rules::printRuleCheckJSON(const RuleCheckResult &result,
                                          llvm::raw_ostream &os) {
  llvm::json::OStream j(os, 2);
  j.object([&] {
    j.attribute("entries", static_cast<int64_t>(result.entries.size()));
    j.attribute("schemas_parsed", result.schemasParsed);
    j.attribute("formulas_total", result.formulasTotal);
    j.attribute("formulas_parsed", result.formulasParsed);
    j.attribute("ops_known", result.opsKnown);
    j.attribute("rules_applicable", result.rulesApplicable);
    j.attributeArray("errors", [&] {
      for (const RuleCheckError &err : result.errors)
        j.object([&] {
          j.attribute("file", err.file);
          j.attribute("line", err.line);
          j.attribute("col", err.col);
          j.attribute("message", err.message);
        });
    });
    j.attributeArray("details", [&] {
      for (const CheckedEntry &e : result.entries)
        j.object([&] {
          j.attribute("name", e.report.name);
          j.attribute("file", e.file);
          j.attribute("line", e.report.loc.line);
          j.attribute("col", e.report.loc.col);
          j.attribute("helper", e.report.isHelper);
          j.attribute("schema_parsed", e.report.schemaParsed);
          j.attribute("formulas_total", e.report.formulasTotal);
          j.attribute("formulas_parsed", e.report.formulasParsed);
          j.attribute("op_known", e.opKnown);
          j.attribute("applicable", e.applicable);
          j.attribute("errors", e.report.errors);
          j.attributeArray("problems", [&] {
            for (const std::string &p : e.problems)
              j.value(p);
          });
          j.attributeArray("notes", [&] {
            for (const std::string &n : e.notes)
              j.value(n);
          });
        });
    });
  });
  os << "\n";
}

//===----------------------------------------------------------------------===//
// --explain-rule
//===----------------------------------------------------------------------===//

static StringRef kindText(const DerivativeKey &key) {
  switch (key.kind) {
  case FormulaKind::NonDifferentiable:
    return "non_differentiable";
  case FormulaKind::AutoLinear:
    return "auto_linear";
  case FormulaKind::AutoElementWise:
    return "auto_element_wise";
  default:
    return "";
  }
}

static void printKey(const DerivativeKey &key, llvm::raw_ostream &os) {
  os << "    " << llvm::join(key.names, ", ") << ": ";
  if (key.kind == FormulaKind::NotImplemented)
    os << "not_implemented(\"" << key.formula.text << "\")";
  else if (key.formula.expr)
    os << printExpr(*key.formula.expr);
  else
    os << kindText(key);
  os << "    # " << locString(key.formula.loc) << "\n";
}

static void printNames(llvm::raw_ostream &os,
                       const std::vector<std::string> &names) {
  if (names.empty())
    os << "nothing";
  else
    os << llvm::join(names, ", ");
}

LogicalResult mlir::tad::rules::explainRule(MLIRContext *ctx,
                                            StringRef opName,
                                            ArrayRef<std::string> extraFiles,
                                            llvm::raw_ostream &os) {
  opName.consume_front("tad.");
  FailureOr<std::shared_ptr<RuleSet>> set = RuleSet::load(ctx, extraFiles);
  if (failed(set))
    return failure();
  const RuleEntry *entry = (*set)->lookup(opName);
  if (!entry)
    return emitError(UnknownLoc::get(ctx))
           << "no derivative rule for '" << opName
           << "' (the op may not exist; see docs/ops.md)";
  const Schema &schema = entry->schema;
  os << "rule for 'tad." << schema.fullName() << "' at "
     << locString(entry->loc) << "\n";
  os << "  schema: " << schema.str() << "\n";
  if (!entry->outputDifferentiability.empty()) {
    os << "  output_differentiability: [";
    llvm::interleaveComma(
        llvm::zip(entry->outputDifferentiability,
                  entry->outputDifferentiabilityConditions),
        os, [&](auto pair) {
          auto [flag, cond] = pair;
          if (flag)
            os << (*flag ? "True" : "False");
          else
            os << "\"" << cond << "\" (unsupported)";
        });
    os << "]\n";
  }
  for (const std::string &key : entry->otherDispatchKeys)
    os << "  dispatch key '" << key << "': accepted, not used\n";

  os << "  backward (VJP):\n";
  if (entry->backward.empty())
    os << "    none\n";
  for (const DerivativeKey &key : entry->backward)
    printKey(key, os);

  os << "  forward (JVP):\n";
  if (entry->forward.empty())
    os << "    none\n";
  for (const DerivativeKey &key : entry->forward) {
    printKey(key, os);
    if (key.kind == FormulaKind::AutoElementWise) {
      const DerivativeKey *backward = nullptr;
      for (const DerivativeKey &k : entry->backward)
        if (k.kind == FormulaKind::Expression && k.formula.expr)
          backward = &k;
      if (backward && backward->names.size() == 1) {
        const std::string &input = backward->names.front();
        llvm::StringMap<std::string> renames;
        renames["grad"] = input + "_t";
        renames[input] = input + "_p";
        os << "      derived: " << llvm::join(key.names, ", ") << " = "
           << printExpr(*renameIdentifiers(*backward->formula.expr, renames))
           << "    (from the backward formula of '" << input
           << "': grad -> " << input << "_t, " << input << " -> " << input
           << "_p; conj() is the identity on real tensors)\n";
      }
    } else if (key.kind == FormulaKind::AutoLinear) {
      std::vector<std::string> args;
      for (const SchemaArgument &arg : schema.arguments) {
        const DerivativeKey *k = entry->findBackward(arg.name);
        bool differentiable = k && k->kind != FormulaKind::NonDifferentiable;
        args.push_back(arg.type.isTensorLike() && differentiable
                           ? arg.name + "_t"
                           : arg.name);
      }
      os << "      derived: " << llvm::join(key.names, ", ") << " = "
         << schema.baseName << "(" << llvm::join(args, ", ")
         << ")    (the op applied to the tangents of its differentiable "
            "inputs)\n";
    }
  }

  // Saved values per requested-gradient mask.
  std::vector<std::string> inputs;
  for (const DerivativeKey &key : entry->backward)
    if (key.kind == FormulaKind::Expression)
      for (const std::string &name : key.names)
        inputs.push_back(name);
  os << "  saved for the VJP (by requested gradients):\n";
  if (inputs.empty()) {
    os << "    no differentiable inputs\n";
    return success();
  }
  const HelperMap &helpers = (*set)->getHelpers();
  size_t n = std::min<size_t>(inputs.size(), 4);
  unsigned numMasks = 1u << n;
  for (unsigned mask = 1; mask < numMasks; ++mask) {
    llvm::StringSet<> wanted;
    std::vector<std::string> wantedNames;
    for (size_t i = 0; i < n; ++i)
      if (mask & (1u << i)) {
        wanted.insert(inputs[i]);
        wantedNames.push_back(inputs[i]);
      }
    if (mask == numMasks - 1)
      for (size_t i = n; i < inputs.size(); ++i) {
        wanted.insert(inputs[i]);
        wantedNames.push_back(inputs[i]);
      }
    SavedValues saved = analyzeSavedValues(*entry, helpers, &wanted);
    os << "    d/d{" << llvm::join(wantedNames, ", ") << "}: saves ";
    printNames(os, saved.saved());
    std::vector<std::string> meta = saved.metadataOnly();
    if (!meta.empty())
      os << "; metadata only: " << llvm::join(meta, ", ");
    os << "\n";
  }
  return success();
}
