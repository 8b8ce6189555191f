//===- Schema.cpp - ATen function schema parser ---------------------------===//

#include "compiler/rules/Schema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

using namespace mlir::tad::rules;
using llvm::failure;
using llvm::FailureOr;
using llvm::LogicalResult;
using llvm::SmallVector;
using llvm::StringRef;
using llvm::success;

//===----------------------------------------------------------------------===//
// SchemaType
//===----------------------------------------------------------------------===//

SchemaType SchemaType::getBase(StringRef name) {
  SchemaType t;
  t.kind = Kind::Base;
  t.base = name.str();
  return t;
}

SchemaType SchemaType::getOptional(SchemaType elem) {
  SchemaType t;
  t.kind = Kind::Optional;
  t.element = std::make_shared<SchemaType>(std::move(elem));
  return t;
}

SchemaType SchemaType::getList(SchemaType elem, std::optional<int64_t> size) {
  SchemaType t;
  t.kind = Kind::List;
  t.listSize = size;
  t.element = std::make_shared<SchemaType>(std::move(elem));
  return t;
}

std::string SchemaType::str(StringRef annotation) const {
  switch (kind) {
  case Kind::Base:
    return base + annotation.str();
  case Kind::Optional:
    return element->str(annotation) + "?";
  case Kind::List:
    return element->str(annotation) + "[" +
           (listSize ? std::to_string(*listSize) : std::string()) + "]";
  }
  return {};
}

const SchemaType &SchemaType::innermost() const {
  const SchemaType *t = this;
  while (t->kind != Kind::Base)
    t = t->element.get();
  return *t;
}

bool SchemaType::isTensor() const {
  return kind == Kind::Base && base == "Tensor";
}

bool SchemaType::isTensorLike() const {
  if (isTensor())
    return true;
  if (kind == Kind::Optional)
    return element->isTensor();
  if (kind == Kind::List)
    return element->isTensor() ||
           (element->kind == Kind::Optional && element->element->isTensor());
  return false;
}

const SchemaType &SchemaType::stripOptional() const {
  return kind == Kind::Optional ? *element : *this;
}

bool SchemaType::hasKnownBase() const {
  StringRef b = innermost().base;
  if (b.starts_with("__torch__.torch.classes."))
    return true;
  return llvm::StringSwitch<bool>(b)
      .Cases({"Tensor", "int", "SymInt", "float", "bool", "str", "Scalar"},
             true)
      .Cases({"ScalarType", "Layout", "Device", "DeviceIndex", "MemoryFormat",
              "Generator", "Storage", "Stream", "QScheme", "SymBool"},
             true)
      .Cases({"DimVector", "GraphModule", "Dimname", "ConstQuantizerPtr"}, true)
      .Default(false);
}

namespace mlir::tad::rules {
bool operator==(const SchemaType &a, const SchemaType &b) {
  if (a.kind != b.kind)
    return false;
  if (a.kind == SchemaType::Kind::Base)
    return a.base == b.base;
  return a.listSize == b.listSize && *a.element == *b.element;
}
} // namespace mlir::tad::rules

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

static std::string typeWithAnnotation(const SchemaType &type,
                                      const std::optional<AliasAnnotation> &a) {
  return type.str(a ? "(" + a->text + ")" : std::string());
}

std::string SchemaArgument::str() const {
  std::string s = typeWithAnnotation(type, annotation) + " " + name;
  if (defaultValue)
    s += "=" + *defaultValue;
  return s;
}

std::string SchemaReturn::str() const {
  std::string s = typeWithAnnotation(type, annotation);
  if (name)
    s += " " + *name;
  return s;
}

std::string Schema::fullName() const {
  std::string s;
  if (!ns.empty())
    s = ns + "::";
  s += baseName;
  if (!overload.empty())
    s += "." + overload;
  return s;
}

std::string Schema::functionalBaseName() const {
  StringRef b = baseName;
  if (isDunder) {
    if (isInplace)
      return ("__" + b.drop_front(3)).str();
    return b.str();
  }
  if (isInplace)
    return b.drop_back().str();
  return b.str();
}

std::string Schema::str() const {
  std::string s = fullName() + "(";
  bool first = true, sawKw = false;
  for (const SchemaArgument &arg : arguments) {
    if (!first)
      s += ", ";
    first = false;
    if (arg.kwOnly && !sawKw) {
      sawKw = true;
      s += "*, ";
    }
    s += arg.str();
  }
  s += ") -> ";
  if (!parenthesizedReturns && returns.size() == 1)
    return s + returns.front().str();
  s += "(";
  llvm::interleave(
      returns, [&](const SchemaReturn &r) { s += r.str(); },
      [&] { s += ", "; });
  return s + ")";
}

int Schema::findArgument(StringRef name) const {
  for (auto [i, arg] : llvm::enumerate(arguments))
    if (arg.name == name)
      return static_cast<int>(i);
  return -1;
}

const SchemaArgument *Schema::getArgument(StringRef name) const {
  int i = findArgument(name);
  return i < 0 ? nullptr : &arguments[i];
}

std::vector<std::string> Schema::outputNames() const {
  std::vector<std::string> names;
  for (auto [i, ret] : llvm::enumerate(returns)) {
    if (ret.name)
      names.push_back(*ret.name == "self" ? "result" : *ret.name);
    else if (returns.size() == 1)
      names.push_back("result");
    else
      names.push_back("result" + std::to_string(i));
  }
  return names;
}

bool Schema::isOutVariant() const {
  return llvm::any_of(arguments, [](const SchemaArgument &a) {
    return a.kwOnly && a.isWrite();
  });
}

bool Schema::isView() const {
  return llvm::any_of(returns, [](const SchemaReturn &r) {
    return r.annotation && !r.annotation->isWrite;
  });
}

std::vector<unsigned> Schema::tensorLikeArguments() const {
  std::vector<unsigned> idx;
  for (auto [i, arg] : llvm::enumerate(arguments))
    if (arg.type.isTensorLike())
      idx.push_back(i);
  return idx;
}

bool Schema::hasSymIntArguments() const {
  return llvm::any_of(arguments, [](const SchemaArgument &a) {
    return a.type.innermost().base == "SymInt";
  });
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {
/// Reports the first error with its offset in the whole schema text.
struct SchemaParser {
  StringRef whole;
  std::string &error;
  size_t errorOffset = 0;

  SchemaParser(StringRef whole, std::string &error)
      : whole(whole), error(error) {}

  size_t offsetOf(StringRef part) const {
    if (part.data() >= whole.data() &&
        part.data() <= whole.data() + whole.size())
      return part.data() - whole.data();
    return 0;
  }

  LogicalResult fail(StringRef at, const llvm::Twine &msg) {
    error = msg.str();
    errorOffset = offsetOf(at);
    return failure();
  }

  static bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
  static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }
  static bool isIdentifier(StringRef s) {
    return !s.empty() && isIdentStart(s.front()) &&
           llvm::all_of(s, isIdentChar);
  }

  /// Splits `s` on ", " at bracket depth 0 and outside quotes.
  SmallVector<StringRef> splitList(StringRef s) {
    SmallVector<StringRef> parts;
    if (s.empty())
      return parts;
    int depth = 0;
    char quote = 0;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (quote) {
        if (c == quote)
          quote = 0;
        continue;
      }
      if (c == '\'' || c == '"')
        quote = c;
      else if (c == '(' || c == '[')
        ++depth;
      else if (c == ')' || c == ']')
        --depth;
      else if (c == ',' && depth == 0 && i + 1 < s.size() && s[i + 1] == ' ') {
        parts.push_back(s.slice(start, i));
        start = i + 2;
        ++i;
      }
    }
    parts.push_back(s.substr(start));
    return parts;
  }

  /// Parses an alias annotation body ("a!", "a|b", "a -> *").
  FailureOr<AliasAnnotation> parseAnnotation(StringRef text) {
    AliasAnnotation a;
    a.text = text.str();
    StringRef before = text, after;
    if (size_t arrow = text.find(" -> "); arrow != StringRef::npos) {
      before = text.take_front(arrow);
      after = text.drop_front(arrow + 4);
      if (after.empty())
        return (void)fail(text,
                          "expected an alias set after '->' in annotation '" +
                              text + "'"),
               failure();
    }
    if (before.consume_back("!"))
      a.isWrite = true;
    SmallVector<StringRef> set;
    before.split(set, '|');
    for (StringRef s : set) {
      if (s.size() != 1 || !llvm::isLower(s.front()))
        return (void)fail(text,
                          "invalid alias annotation '" + text +
                              "' (expected e.g. 'a', 'a!', 'a|b', 'a -> *')"),
               failure();
      a.aliasSet.push_back(s.str());
    }
    if (a.isWrite && a.aliasSet.size() > 1)
      return (void)fail(text, "alias annotation '" + text +
                                  "' cannot combine a write mark with several "
                                  "alias sets"),
             failure();
    if (!after.empty()) {
      if (after == "*") {
        a.afterSet.push_back("*");
      } else {
        SmallVector<StringRef> afterSet;
        after.split(afterSet, '|');
        for (StringRef s : afterSet) {
          if (s.size() != 1 || !llvm::isLower(s.front()))
            return (void)fail(text, "invalid alias annotation '" + text + "'"),
                   failure();
          a.afterSet.push_back(s.str());
        }
      }
    }
    return a;
  }

  static constexpr unsigned kMaxTypeSuffixes = 8;

  /// Parses "Tensor(a!)?[]"-style text: base, optional annotation right after
  /// the base, then suffixes.
  LogicalResult parseType(StringRef text, SchemaType &type,
                          std::optional<AliasAnnotation> &annotation,
                          bool allowAnnotation) {
    size_t n = 0;
    while (n < text.size() && (isIdentChar(text[n]) || text[n] == '.'))
      ++n;
    StringRef base = text.take_front(n);
    if (base.empty() || !isIdentStart(base.front()))
      return fail(text, "expected a type name in '" + text + "'");
    type = SchemaType::getBase(base);
    if (!type.hasKnownBase())
      return fail(text, "unknown type '" + base + "'");
    StringRef rest = text.drop_front(n);
    if (rest.starts_with("(")) {
      size_t close = rest.find(')');
      if (close == StringRef::npos)
        return fail(rest, "unterminated alias annotation in '" + text + "'");
      if (!allowAnnotation)
        return fail(rest, "unexpected alias annotation in '" + text + "'");
      auto a = parseAnnotation(rest.slice(1, close));
      if (failed(a))
        return failure();
      annotation = std::move(*a);
      rest = rest.drop_front(close + 1);
    }
    unsigned numSuffixes = 0;
    while (!rest.empty()) {
      // Types nest right-recursively; a bound keeps printing and destruction
      // off deep recursion (schemas use at most two suffixes).
      if (++numSuffixes > kMaxTypeSuffixes)
        return fail(rest, "type '" + text + "' has more than " +
                              llvm::Twine(kMaxTypeSuffixes) +
                              " '?' and '[]' suffixes");
      if (rest.consume_front("?")) {
        type = SchemaType::getOptional(std::move(type));
        continue;
      }
      if (rest.starts_with("[")) {
        size_t close = rest.find(']');
        if (close == StringRef::npos)
          return fail(rest, "unterminated list type in '" + text + "'");
        StringRef sizeText = rest.slice(1, close);
        std::optional<int64_t> size;
        if (!sizeText.empty()) {
          int64_t v;
          if (sizeText.getAsInteger(10, v) || v < 0 ||
              std::to_string(v) != sizeText)
            return fail(sizeText, "invalid list size '" + sizeText +
                                      "' in type '" + text + "'");
          size = v;
        }
        type = SchemaType::getList(std::move(type), size);
        rest = rest.drop_front(close + 1);
        continue;
      }
      return fail(rest, "unexpected '" + rest + "' in type '" + text + "'");
    }
    if (annotation && !type.isTensorLike())
      return fail(text, "alias annotation on non-tensor type '" + text + "'");
    return success();
  }

  /// Position of the last space at parenthesis depth 0, or npos.
  static size_t lastTopLevelSpace(StringRef s) {
    int depth = 0;
    size_t pos = StringRef::npos;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '(')
        ++depth;
      else if (s[i] == ')')
        --depth;
      else if (s[i] == ' ' && depth == 0)
        pos = i;
    }
    return pos;
  }

  LogicalResult parseArgument(StringRef text, SchemaArgument &arg) {
    if (text.empty())
      return fail(text, "empty argument");
    if (text.front() == ' ' || text.back() == ' ')
      return fail(text, "unexpected whitespace around argument '" + text + "'");
    // The default starts at the first '=' outside the annotation.
    StringRef decl = text;
    int depth = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '(')
        ++depth;
      else if (text[i] == ')')
        --depth;
      else if (text[i] == '=' && depth == 0) {
        decl = text.take_front(i);
        arg.defaultValue = text.drop_front(i + 1).str();
        if (arg.defaultValue->empty())
          return fail(text.drop_front(i),
                      "missing default value for '" + decl + "'");
        break;
      }
    }
    size_t space = lastTopLevelSpace(decl);
    if (space == StringRef::npos)
      return fail(text, "expected 'TYPE NAME' in argument '" + text + "'");
    StringRef name = decl.drop_front(space + 1);
    if (!isIdentifier(name))
      return fail(name, "invalid argument name '" + name + "'");
    arg.name = name.str();
    return parseType(decl.take_front(space), arg.type, arg.annotation,
                     /*allowAnnotation=*/true);
  }

  LogicalResult parseReturn(StringRef text, SchemaReturn &ret) {
    if (text.empty())
      return fail(text, "empty return");
    StringRef typeText = text;
    size_t space = lastTopLevelSpace(text);
    if (space != StringRef::npos) {
      StringRef name = text.drop_front(space + 1);
      if (!isIdentifier(name))
        return fail(name, "invalid return name '" + name + "'");
      ret.name = name.str();
      typeText = text.take_front(space);
    }
    return parseType(typeText, ret.type, ret.annotation,
                     /*allowAnnotation=*/true);
  }

  LogicalResult parseName(StringRef text, Schema &s) {
    StringRef name = text;
    if (size_t colons = name.find("::"); colons != StringRef::npos) {
      StringRef ns = name.take_front(colons);
      if (!isIdentifier(ns))
        return fail(text, "invalid namespace '" + ns + "'");
      s.ns = ns.str();
      name = name.drop_front(colons + 2);
    }
    auto [base, overload] = name.split('.');
    if (base.empty())
      return fail(base, "missing operator name");
    if (!isIdentifier(base))
      return fail(base, "invalid operator name '" + base + "'");
    if (name.contains('.')) {
      if (!isIdentifier(overload))
        return fail(overload.empty() ? name.drop_front(base.size()) : overload,
                    "invalid overload name '" + overload + "'");
    }
    s.baseName = base.str();
    s.overload = overload.str();
    if (base.size() > 4 && base.starts_with("__") && base.ends_with("__")) {
      s.isDunder = true;
      StringRef inner = base.drop_front(2).drop_back(2);
      s.isInplace =
          inner.starts_with("i") &&
          llvm::is_contained({"add", "sub", "mul", "div", "mod", "pow",
                              "lshift", "rshift", "and", "xor", "or"},
                             inner.drop_front(1));
    } else {
      s.isInplace = base.ends_with("_");
    }
    s.isFunctionalVariant = base.ends_with("_functional");
    return success();
  }

  LogicalResult parse(Schema &s) {
    StringRef text = whole;
    size_t open = text.find('(');
    if (open == StringRef::npos)
      return fail(text.drop_front(text.size()),
                  "expected '(' after the operator name");
    if (failed(parseName(text.take_front(open), s)))
      return failure();
    // Find the ')' matching the argument list's '('.
    int depth = 0;
    char quote = 0;
    size_t close = StringRef::npos;
    for (size_t i = open; i < text.size(); ++i) {
      char c = text[i];
      if (quote) {
        if (c == quote)
          quote = 0;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '(') {
        ++depth;
      } else if (c == ')' && --depth == 0) {
        close = i;
        break;
      }
    }
    if (close == StringRef::npos)
      return fail(text.drop_front(open), "unbalanced '(' in schema");
    StringRef after = text.drop_front(close + 1);
    if (!after.consume_front(" -> "))
      return fail(after, "expected ' -> ' after the argument list");

    // Arguments.
    bool sawKw = false;
    StringRef argsText = text.slice(open + 1, close);
    SmallVector<StringRef> args = splitList(argsText);
    for (auto [i, a] : llvm::enumerate(args)) {
      if (a == "*") {
        if (sawKw)
          return fail(a, "'*' may appear only once in an argument list");
        if (i + 1 == args.size())
          return fail(a, "'*' must be followed by keyword-only arguments");
        sawKw = true;
        continue;
      }
      SchemaArgument arg;
      arg.kwOnly = sawKw;
      if (failed(parseArgument(a, arg)))
        return failure();
      s.arguments.push_back(std::move(arg));
    }

    // Returns.
    if (after.empty())
      return fail(after, "missing return type");
    if (after.front() == '(') {
      if (!after.ends_with(")"))
        return fail(after, "expected ')' at the end of the return list");
      s.parenthesizedReturns = true;
      for (StringRef r : splitList(after.drop_front().drop_back())) {
        SchemaReturn ret;
        if (failed(parseReturn(r, ret)))
          return failure();
        s.returns.push_back(std::move(ret));
      }
    } else {
      SchemaReturn ret;
      if (failed(parseReturn(after, ret)))
        return failure();
      s.returns.push_back(std::move(ret));
    }
    return success();
  }
};
} // namespace

FailureOr<SchemaType> mlir::tad::rules::parseSchemaType(StringRef text,
                                                        std::string &error) {
  SchemaParser p(text, error);
  SchemaType type;
  std::optional<AliasAnnotation> annotation;
  if (failed(p.parseType(text, type, annotation, /*allowAnnotation=*/false)))
    return failure();
  return type;
}

FailureOr<Schema> mlir::tad::rules::parseSchema(StringRef text,
                                                std::string &error,
                                                size_t *errorOffset) {
  SchemaParser p(text, error);
  Schema s;
  if (failed(p.parse(s)) || failed(verifySchema(s, error))) {
    if (errorOffset)
      *errorOffset = p.errorOffset;
    return failure();
  }
  // Accept only text that prints back identically, so str() is lossless.
  if (std::string printed = s.str(); printed != text) {
    size_t i = 0;
    while (i < printed.size() && i < text.size() && printed[i] == text[i])
      ++i;
    error = "unexpected formatting in schema (expected '" + printed + "')";
    if (errorOffset)
      *errorOffset = i;
    return failure();
  }
  return s;
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

LogicalResult mlir::tad::rules::verifySchema(const Schema &s,
                                             std::string &error) {
  auto fail = [&](const llvm::Twine &msg) {
    error = msg.str();
    return failure();
  };
  StringRef base = s.baseName;
  if (base.ends_with("_out"))
    return fail("operator name '" + base +
                "' may not end in '_out' (use an overload name)");

  llvm::StringSet<> names;
  for (const SchemaArgument &arg : s.arguments)
    if (!names.insert(arg.name).second)
      return fail("duplicate argument name '" + arg.name + "'");

  // Out arguments: kw-only arguments with a write annotation; they come last.
  SmallVector<const SchemaArgument *> outArgs;
  for (const SchemaArgument &arg : s.arguments) {
    if (arg.kwOnly && arg.isWrite())
      outArgs.push_back(&arg);
    else if (!outArgs.empty())
      return fail("non-out argument '" + arg.name +
                  "' may not follow the out arguments");
  }

  // Returns are all mutable or all immutable.
  size_t numWriteReturns = llvm::count_if(
      s.returns, [](const SchemaReturn &r) { return r.isWrite(); });
  if (numWriteReturns != 0 && numWriteReturns != s.returns.size())
    return fail("returns must be all mutable or all immutable");

  // Every mutable return aliases a mutable argument.
  for (const SchemaReturn &r : s.returns) {
    if (!r.isWrite())
      continue;
    bool found = llvm::any_of(s.arguments, [&](const SchemaArgument &a) {
      return a.isWrite() && a.annotation->aliasSet == r.annotation->aliasSet;
    });
    if (!found)
      return fail("mutable return '" + r.str() +
                  "' does not alias a mutable argument");
  }

  const SchemaArgument *self = s.getArgument("self");
  if (s.isInplace) {
    if (!outArgs.empty())
      return fail("schema cannot be both inplace and out");
    if (!self || !self->isWrite())
      return fail("inplace operator '" + base +
                  "' must have a mutable 'self' argument");
    if (self->type.isTensor()) {
      if (s.returns.size() != 1 || !s.returns[0].type.isTensor() ||
          !s.returns[0].annotation ||
          s.returns[0].annotation->text != self->annotation->text)
        return fail("inplace operator '" + base +
                    "' must return exactly 'self' (" +
                    self->type.str("(" + self->annotation->text + ")") + ")");
    } else if (!s.returns.empty()) {
      return fail("inplace operator '" + base +
                  "' with non-Tensor 'self' must return nothing");
    }
  } else if (!outArgs.empty()) {
    bool allPlainTensors = llvm::all_of(
        outArgs, [](const SchemaArgument *a) { return a->type.isTensor(); });
    if (!allPlainTensors) {
      if (!s.returns.empty())
        return fail("out variant with non-Tensor out arguments must return "
                    "nothing");
    } else {
      SmallVector<const SchemaArgument *> counted;
      for (const SchemaArgument *a : outArgs)
        if (!StringRef(a->name).starts_with("_scratch_"))
          counted.push_back(a);
      if (counted.size() != s.returns.size())
        return fail("out variant has " + llvm::Twine(counted.size()) +
                    " out arguments but " + llvm::Twine(s.returns.size()) +
                    " returns");
      for (auto [a, r] : llvm::zip_equal(counted, s.returns))
        if (!r.annotation || r.annotation->text != a->annotation->text)
          return fail("return '" + r.str() +
                      "' must carry the annotation of out argument '" +
                      a->name + "' (" + a->annotation->text + ")");
    }
  }

  if (StringRef(s.overload).contains("functional") &&
      llvm::any_of(s.arguments,
                   [](const SchemaArgument &a) { return a.isWrite(); }))
    return fail("overload '" + s.overload +
                "' names a functional variant but the schema mutates an "
                "argument");
  return success();
}
