//===- Formula.cpp - Derivative formula expressions -----------------------===//

#include "compiler/rules/Formula.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cstdlib>

using namespace mlir::tad::rules;
using llvm::failure;
using llvm::FailureOr;
using llvm::LogicalResult;
using llvm::SmallVector;
using llvm::StringRef;
using llvm::success;
using Kind = Expr::Kind;

//===----------------------------------------------------------------------===//
// Expr
//===----------------------------------------------------------------------===//

int64_t Expr::intValue() const {
  int64_t v = 0;
  if (StringRef(name).getAsInteger(10, v))
    return 0;
  return v;
}

double Expr::floatValue() const {
  std::string text = name;
  if (!text.empty() && (text.back() == 'f' || text.back() == 'F'))
    text.pop_back();
  return std::strtod(text.c_str(), nullptr);
}

bool Expr::boolValue() const { return name == "true"; }

llvm::ArrayRef<std::unique_ptr<Expr>> Expr::callArgs() const {
  llvm::ArrayRef<std::unique_ptr<Expr>> ops = operands;
  if (kind == Kind::MethodCall || kind == Kind::ArrowCall)
    return ops.drop_front();
  return ops;
}

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

namespace {
enum class Tok {
  End,
  Ident,  // possibly qualified: at::sum, at::Reduction::Mean
  Number, // text as written
  String, // text = unescaped contents
  Punct,  // ( ) [ ] { } , . -> ? : + - * / < <= > >= == != & && || ! ;
  Error
};

struct Token {
  Tok kind = Tok::End;
  std::string text;
  size_t offset = 0;
  bool isFloat = false;
};

class Lexer {
public:
  Lexer(StringRef text) : text(text) {}

  /// Lexes the next token; on error returns Tok::Error and sets `error`.
  Token next() {
    skipSpaceAndComments();
    Token t;
    t.offset = pos;
    if (!error.empty()) {
      t.kind = Tok::Error;
      return t;
    }
    if (pos >= text.size())
      return t;
    char c = text[pos];
    if (llvm::isAlpha(c) || c == '_')
      return lexIdent();
    if (llvm::isDigit(c) ||
        (c == '.' && pos + 1 < text.size() && llvm::isDigit(text[pos + 1])))
      return lexNumber();
    if (c == '"')
      return lexString();
    static const char *const puncts[] = {
        "->", "<=", ">=", "==", "!=", "&&", "||", "(", ")", "[", "]", "{", "}",
        ",",  ".",  "?",  ":",  "+",  "-",  "*",  "/", "<", ">", "&", "|", "!",
        ";"};
    for (const char *p : puncts) {
      if (text.substr(pos).starts_with(p)) {
        t.kind = Tok::Punct;
        t.text = p;
        pos += t.text.size();
        return t;
      }
    }
    error = ("unexpected character '" + text.substr(pos, 1) + "'").str();
    errorOffset = pos;
    t.kind = Tok::Error;
    return t;
  }

  size_t position() const { return pos; }
  void reset(size_t p) { pos = p; }
  StringRef source() const { return text; }

  std::string error;
  size_t errorOffset = 0;

private:
  void skipSpaceAndComments() {
    while (pos < text.size()) {
      if (llvm::isSpace(text[pos])) {
        ++pos;
        continue;
      }
      if (text.substr(pos).starts_with("/*")) {
        size_t end = text.find("*/", pos + 2);
        if (end == StringRef::npos) {
          error = "unterminated comment";
          errorOffset = pos;
          pos = text.size();
          return;
        }
        pos = end + 2;
        continue;
      }
      return;
    }
  }

  static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

  Token lexIdent() {
    Token t;
    t.kind = Tok::Ident;
    t.offset = pos;
    size_t start = pos;
    while (true) {
      while (pos < text.size() && isIdentChar(text[pos]))
        ++pos;
      // Qualification: "::" followed by an identifier.
      if (text.substr(pos).starts_with("::") && pos + 2 < text.size() &&
          (llvm::isAlpha(text[pos + 2]) || text[pos + 2] == '_')) {
        pos += 2;
        continue;
      }
      break;
    }
    t.text = text.slice(start, pos).str();
    return t;
  }

  Token lexNumber() {
    Token t;
    t.kind = Tok::Number;
    t.offset = pos;
    size_t start = pos;
    while (pos < text.size() && llvm::isDigit(text[pos]))
      ++pos;
    if (pos < text.size() && text[pos] == '.') {
      t.isFloat = true;
      ++pos;
      while (pos < text.size() && llvm::isDigit(text[pos]))
        ++pos;
    }
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
      size_t save = pos++;
      if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        ++pos;
      if (pos < text.size() && llvm::isDigit(text[pos])) {
        t.isFloat = true;
        while (pos < text.size() && llvm::isDigit(text[pos]))
          ++pos;
      } else {
        pos = save;
      }
    }
    if (pos < text.size() && (llvm::isAlpha(text[pos]) || text[pos] == '_')) {
      error = ("invalid number '" + text.slice(start, pos + 1) + "'").str();
      errorOffset = start;
      t.kind = Tok::Error;
      return t;
    }
    t.text = text.slice(start, pos).str();
    return t;
  }

  Token lexString() {
    Token t;
    t.kind = Tok::String;
    t.offset = pos;
    ++pos;
    while (pos < text.size() && text[pos] != '"') {
      char c = text[pos++];
      if (c == '\\') {
        if (pos >= text.size())
          break;
        char e = text[pos++];
        switch (e) {
        case 'n':
          t.text += '\n';
          break;
        case 't':
          t.text += '\t';
          break;
        default:
          t.text += e; // \" \\ \'
        }
        continue;
      }
      t.text += c;
    }
    if (pos >= text.size()) {
      error = "unterminated string literal";
      errorOffset = t.offset;
      t.kind = Tok::Error;
      return t;
    }
    ++pos; // closing quote
    return t;
  }

  StringRef text;
  size_t pos = 0;
};

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

class Parser {
public:
  Parser(StringRef text) : lex(text) { advance(); }

  FailureOr<ExprPtr> parseTop() {
    ExprPtr e = parseExpr();
    if (!e)
      return failure();
    if (tok.kind != Tok::End)
      return fail(tok.offset, "unexpected '" + tokText() +
                                  "' after the end of the expression"),
             failure();
    return e;
  }

  std::string error;
  size_t errorOffset = 0;

  /// The deepest AST (and parser recursion) accepted: upstream formulas nest
  /// about 20 levels; the bound keeps the recursive printer, walkers and
  /// destructors away from stack overflow on hostile input.
  static constexpr unsigned kMaxDepth = 256;

private:
  /// Records the height of a finished node and fails when it exceeds
  /// kMaxDepth. Every node the parser builds passes through here once its
  /// operands are complete.
  ExprPtr done(ExprPtr e) {
    if (!e)
      return nullptr;
    unsigned h = 0;
    for (const ExprPtr &op : e->operands)
      h = std::max(h, heights.lookup(op.get()));
    if (++h > kMaxDepth)
      return fail(e->offset, "formula nests more than " +
                                 llvm::Twine(kMaxDepth) + " levels deep");
    heights[e.get()] = h;
    return e;
  }

  /// Counts recursive descent (parentheses nest without adding AST levels).
  struct Nesting {
    explicit Nesting(unsigned &depth) : depth(depth) { ++depth; }
    ~Nesting() { --depth; }
    unsigned &depth;
  };
  bool tooDeep() {
    if (recursion <= kMaxDepth)
      return false;
    fail(tok.offset,
         "formula nests more than " + llvm::Twine(kMaxDepth) + " levels deep");
    return true;
  }

  void advance() {
    tok = lex.next();
    if (tok.kind == Tok::Error && error.empty()) {
      error = lex.error;
      errorOffset = lex.errorOffset;
    }
  }

  bool isPunct(StringRef p) const {
    return tok.kind == Tok::Punct && tok.text == p;
  }

  std::string tokText() const {
    switch (tok.kind) {
    case Tok::End:
      return "end of formula";
    case Tok::String:
      return "\"" + tok.text + "\"";
    default:
      return tok.text;
    }
  }

  std::nullptr_t fail(size_t offset, const llvm::Twine &msg) {
    if (error.empty()) {
      error = msg.str();
      errorOffset = offset;
    }
    return nullptr;
  }

  bool expect(StringRef p, StringRef context) {
    if (tok.kind == Tok::Error)
      return false;
    if (!isPunct(p)) {
      fail(tok.offset,
           "expected '" + p + "' " + context + ", found '" + tokText() + "'");
      return false;
    }
    advance();
    return true;
  }

  // expr := logor ["?" expr ":" expr]
  ExprPtr parseExpr() {
    Nesting nesting(recursion);
    if (tooDeep())
      return nullptr;
    ExprPtr cond = parseBinary(0);
    if (!cond)
      return nullptr;
    if (!isPunct("?"))
      return cond;
    size_t offset = cond->offset;
    advance();
    ExprPtr t = parseExpr();
    if (!t || !expect(":", "in conditional expression"))
      return nullptr;
    ExprPtr f = parseExpr();
    if (!f)
      return nullptr;
    auto e = std::make_unique<Expr>(Kind::Ternary, "?:", offset);
    e->operands.push_back(std::move(cond));
    e->operands.push_back(std::move(t));
    e->operands.push_back(std::move(f));
    return done(std::move(e));
  }

  /// Binary precedence levels, lowest first.
  static int binaryLevel(StringRef op) {
    return llvm::StringSwitch<int>(op)
        .Case("||", 0)
        .Case("&&", 1)
        .Case("|", 2)
        .Case("&", 3)
        .Cases({"==", "!="}, 4)
        .Cases({"<", "<=", ">", ">="}, 5)
        .Cases({"+", "-"}, 6)
        .Cases({"*", "/"}, 7)
        .Default(-1);
  }
  static constexpr int kNumBinaryLevels = 8;

  ExprPtr parseBinary(int level) {
    if (level == kNumBinaryLevels)
      return parseUnary();
    ExprPtr lhs = parseBinary(level + 1);
    if (!lhs)
      return nullptr;
    while (tok.kind == Tok::Punct && binaryLevel(tok.text) == level) {
      std::string op = tok.text;
      advance();
      ExprPtr rhs = parseBinary(level + 1);
      if (!rhs)
        return nullptr;
      size_t offset = lhs->offset;
      auto e = std::make_unique<Expr>(Kind::Binary, op, offset);
      e->operands.push_back(std::move(lhs));
      e->operands.push_back(std::move(rhs));
      lhs = done(std::move(e));
      if (!lhs)
        return nullptr;
    }
    return lhs;
  }

  ExprPtr parseUnary() {
    Nesting nesting(recursion);
    if (tooDeep())
      return nullptr;
    if (isPunct("-") || isPunct("!") || isPunct("*")) {
      auto e = std::make_unique<Expr>(Kind::Unary, tok.text, tok.offset);
      advance();
      ExprPtr x = parseUnary();
      if (!x)
        return nullptr;
      e->operands.push_back(std::move(x));
      return done(std::move(e));
    }
    return parsePostfix();
  }

  /// Parses "(args)" into `into`; the current token is '('.
  bool parseArgs(Expr &into, StringRef context) {
    if (!expect("(", context))
      return false;
    if (isPunct(")")) {
      advance();
      return true;
    }
    while (true) {
      ExprPtr a = parseExpr();
      if (!a)
        return false;
      into.operands.push_back(std::move(a));
      if (isPunct(",")) {
        advance();
        continue;
      }
      return expect(")", "after call arguments");
    }
  }

  /// If the source at the current token (which is '<') holds template
  /// arguments "<A, B<C>>" followed by '(', consumes them into `args`.
  bool tryTemplateArgs(std::vector<std::string> &args) {
    if (!isPunct("<"))
      return false;
    StringRef src = lex.source();
    size_t i = tok.offset + 1;
    int depth = 1;
    size_t argStart = i;
    std::vector<std::string> found;
    for (; i < src.size(); ++i) {
      char c = src[i];
      if (c == '<') {
        ++depth;
      } else if (c == '>') {
        if (--depth == 0)
          break;
      } else if (c == ',' && depth == 1) {
        found.push_back(src.slice(argStart, i).trim().str());
        argStart = i + 1;
      } else if (!(llvm::isAlnum(c) || c == '_' || c == ':' || c == ' ')) {
        return false;
      }
    }
    if (i >= src.size())
      return false;
    found.push_back(src.slice(argStart, i).trim().str());
    size_t j = i + 1;
    while (j < src.size() && llvm::isSpace(src[j]))
      ++j;
    if (j >= src.size() || src[j] != '(')
      return false;
    if (llvm::any_of(found, [](const std::string &s) { return s.empty(); }))
      return false;
    args = std::move(found);
    lex.reset(i + 1);
    advance();
    return true;
  }

  ExprPtr parsePostfix() {
    ExprPtr e = parsePrimary();
    while (e) {
      if (isPunct(".") || isPunct("->")) {
        bool arrow = tok.text == "->";
        advance();
        if (tok.kind != Tok::Ident || StringRef(tok.text).contains("::"))
          return fail(tok.offset, "expected a method name after '" +
                                      llvm::Twine(arrow ? "->" : ".") +
                                      "', found '" + tokText() + "'");
        auto call = std::make_unique<Expr>(
            arrow ? Kind::ArrowCall : Kind::MethodCall, tok.text, e->offset);
        size_t nameOffset = tok.offset;
        advance();
        tryTemplateArgs(call->templateArgs);
        if (!isPunct("("))
          return fail(tok.kind == Tok::End ? nameOffset : tok.offset,
                      "expected '(' after method name '" + call->name + "'");
        call->operands.push_back(std::move(e));
        if (!parseArgs(*call, "after method name"))
          return nullptr;
        e = done(std::move(call));
        continue;
      }
      if (isPunct("[")) {
        advance();
        ExprPtr index = parseExpr();
        if (!index || !expect("]", "after index"))
          return nullptr;
        auto idx = std::make_unique<Expr>(Kind::Index, "[]", e->offset);
        idx->operands.push_back(std::move(e));
        idx->operands.push_back(std::move(index));
        e = done(std::move(idx));
        continue;
      }
      break;
    }
    return e;
  }

  ExprPtr parseLambda() {
    size_t offset = tok.offset;
    advance(); // '['
    if (!expect("]", "in lambda (captures are not supported)"))
      return nullptr;
    if (!isPunct("("))
      return fail(tok.offset, "expected '(' after '[]' in lambda");
    // The parameter list is kept as text.
    StringRef src = lex.source();
    size_t close = src.find(')', tok.offset);
    if (close == StringRef::npos)
      return fail(tok.offset, "unterminated lambda parameter list");
    std::string params = src.slice(tok.offset + 1, close).trim().str();
    lex.reset(close + 1);
    advance();
    if (!expect("{", "before lambda body"))
      return nullptr;
    if (tok.kind != Tok::Ident || tok.text != "return")
      return fail(tok.offset, "expected 'return' in lambda body");
    advance();
    ExprPtr body = parseExpr();
    if (!body || !expect(";", "after lambda return expression") ||
        !expect("}", "after lambda body"))
      return nullptr;
    auto e = std::make_unique<Expr>(Kind::Lambda, params, offset);
    e->operands.push_back(std::move(body));
    return done(std::move(e));
  }

  ExprPtr parsePrimary() {
    switch (tok.kind) {
    case Tok::Error:
      return nullptr;
    case Tok::End:
      return fail(tok.offset, "expected an expression, found end of formula");
    case Tok::Number: {
      auto e = std::make_unique<Expr>(tok.isFloat ? Kind::Float : Kind::Integer,
                                      tok.text, tok.offset);
      advance();
      return done(std::move(e));
    }
    case Tok::String: {
      auto e = std::make_unique<Expr>(Kind::String, tok.text, tok.offset);
      advance();
      return done(std::move(e));
    }
    case Tok::Ident: {
      if (tok.text == "true" || tok.text == "false") {
        auto e = std::make_unique<Expr>(Kind::Bool, tok.text, tok.offset);
        advance();
        return done(std::move(e));
      }
      auto e = std::make_unique<Expr>(Kind::Identifier, tok.text, tok.offset);
      advance();
      if (tryTemplateArgs(e->templateArgs) || isPunct("(")) {
        e->kind = Kind::Call;
        if (!parseArgs(*e, "in call"))
          return nullptr;
      }
      return done(std::move(e));
    }
    case Tok::Punct:
      break;
    }
    if (isPunct("(")) {
      advance();
      ExprPtr e = parseExpr();
      if (!e || !expect(")", "to close parenthesized expression"))
        return nullptr;
      return e;
    }
    if (isPunct("{")) {
      auto e = std::make_unique<Expr>(Kind::BraceList, "{}", tok.offset);
      advance();
      if (isPunct("}")) {
        advance();
        return done(std::move(e));
      }
      while (true) {
        ExprPtr x = parseExpr();
        if (!x)
          return nullptr;
        e->operands.push_back(std::move(x));
        if (isPunct(",")) {
          advance();
          continue;
        }
        if (!expect("}", "to close brace list"))
          return nullptr;
        return done(std::move(e));
      }
    }
    if (isPunct("["))
      return parseLambda();
    return fail(tok.offset,
                "expected an expression, found '" + tokText() + "'");
  }

  Lexer lex;
  Token tok;
  llvm::DenseMap<const Expr *, unsigned> heights;
  unsigned recursion = 0;
};
} // namespace

FailureOr<ExprPtr> mlir::tad::rules::parseFormula(StringRef text,
                                                  std::string &error,
                                                  size_t &errorOffset) {
  Parser p(text);
  FailureOr<ExprPtr> e = p.parseTop();
  if (failed(e)) {
    error = p.error.empty() ? "invalid formula" : p.error;
    errorOffset = p.errorOffset;
    return failure();
  }
  return e;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

namespace {
/// Precedence of a node for printing; higher binds tighter.
int precedence(const Expr &e) {
  switch (e.kind) {
  case Kind::Ternary:
    return 1;
  case Kind::Binary:
    return llvm::StringSwitch<int>(e.name)
        .Case("||", 2)
        .Case("&&", 3)
        .Case("|", 4)
        .Case("&", 5)
        .Cases({"==", "!="}, 6)
        .Cases({"<", "<=", ">", ">="}, 7)
        .Cases({"+", "-"}, 8)
        .Cases({"*", "/"}, 9)
        .Default(0);
  case Kind::Unary:
    return 10;
  case Kind::MethodCall:
  case Kind::ArrowCall:
  case Kind::Index:
    return 11;
  default:
    return 12;
  }
}

void print(const Expr &e, std::string &out);

void printWithParens(const Expr &e, int minPrec, std::string &out) {
  bool parens = precedence(e) < minPrec;
  if (parens)
    out += '(';
  print(e, out);
  if (parens)
    out += ')';
}

void printList(llvm::ArrayRef<ExprPtr> items, std::string &out) {
  llvm::interleave(
      items, [&](const ExprPtr &x) { print(*x, out); }, [&] { out += ", "; });
}

void printTemplateArgs(const Expr &e, std::string &out) {
  if (e.templateArgs.empty())
    return;
  out += '<';
  llvm::interleave(
      e.templateArgs, [&](const std::string &s) { out += s; },
      [&] { out += ", "; });
  out += '>';
}

void print(const Expr &e, std::string &out) {
  switch (e.kind) {
  case Kind::Identifier:
  case Kind::Integer:
  case Kind::Float:
  case Kind::Bool:
    out += e.name;
    return;
  case Kind::String:
    out += '"';
    for (char c : e.name) {
      if (c == '"' || c == '\\')
        out += '\\';
      if (c == '\n') {
        out += "\\n";
        continue;
      }
      if (c == '\t') {
        out += "\\t";
        continue;
      }
      out += c;
    }
    out += '"';
    return;
  case Kind::Call:
    out += e.name;
    printTemplateArgs(e, out);
    out += '(';
    printList(e.operands, out);
    out += ')';
    return;
  case Kind::MethodCall:
  case Kind::ArrowCall:
    printWithParens(*e.operands[0], precedence(e), out);
    out += e.kind == Kind::MethodCall ? "." : "->";
    out += e.name;
    printTemplateArgs(e, out);
    out += '(';
    printList(e.callArgs(), out);
    out += ')';
    return;
  case Kind::Index:
    printWithParens(*e.operands[0], precedence(e), out);
    out += '[';
    print(*e.operands[1], out);
    out += ']';
    return;
  case Kind::Unary:
    out += e.name;
    // "- -a", not "--a" (which C++ would read as a decrement).
    if (e.operands[0]->kind == Kind::Unary && e.operands[0]->name == e.name)
      out += ' ';
    printWithParens(*e.operands[0], precedence(e), out);
    return;
  case Kind::Binary: {
    int prec = precedence(e);
    // Operands of '&' and '|' that are binary expressions get parentheses
    // for readability: (a == 0) & (b <= 0).
    int minPrec = (e.name == "&" || e.name == "|")
                      ? precedence(Expr(Kind::Unary, "", 0))
                      : 0;
    printWithParens(*e.operands[0], std::max(prec, minPrec), out);
    out += ' ';
    out += e.name;
    out += ' ';
    printWithParens(*e.operands[1], std::max(prec + 1, minPrec), out);
    return;
  }
  case Kind::Ternary:
    printWithParens(*e.operands[0], 2, out);
    out += " ? ";
    print(*e.operands[1], out);
    out += " : ";
    print(*e.operands[2], out);
    return;
  case Kind::BraceList:
    out += '{';
    printList(e.operands, out);
    out += '}';
    return;
  case Kind::Lambda:
    out += "[](" + e.name + "){return ";
    print(*e.operands[0], out);
    out += ";}";
    return;
  }
}
} // namespace

std::string mlir::tad::rules::printExpr(const Expr &e) {
  std::string out;
  print(e, out);
  return out;
}

bool mlir::tad::rules::exprEqual(const Expr &a, const Expr &b) {
  if (a.kind != b.kind || a.name != b.name ||
      a.templateArgs != b.templateArgs ||
      a.operands.size() != b.operands.size())
    return false;
  for (auto [x, y] : llvm::zip_equal(a.operands, b.operands))
    if (!exprEqual(*x, *y))
      return false;
  return true;
}

ExprPtr mlir::tad::rules::cloneExpr(const Expr &e) {
  auto c = std::make_unique<Expr>(e.kind, e.name, e.offset);
  c->templateArgs = e.templateArgs;
  for (const ExprPtr &op : e.operands)
    c->operands.push_back(cloneExpr(*op));
  return c;
}

/// Names bound by a lambda parameter list: the last word of each parameter.
static llvm::StringSet<> lambdaParams(StringRef params) {
  llvm::StringSet<> names;
  SmallVector<StringRef> parts;
  params.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef p : parts) {
    p = p.trim();
    size_t space = p.find_last_of(" \t*&");
    names.insert(space == StringRef::npos ? p : p.drop_front(space + 1));
  }
  return names;
}

static ExprPtr renameImpl(const Expr &e,
                          const llvm::StringMap<std::string> &renames,
                          const llvm::StringSet<> &bound) {
  auto c = std::make_unique<Expr>(e.kind, e.name, e.offset);
  c->templateArgs = e.templateArgs;
  if (e.kind == Kind::Identifier && !bound.contains(e.name)) {
    auto it = renames.find(e.name);
    if (it != renames.end())
      c->name = it->second;
  }
  if (e.kind == Kind::Lambda) {
    llvm::StringSet<> inner = bound;
    for (const auto &p : lambdaParams(e.name))
      inner.insert(p.getKey());
    c->operands.push_back(renameImpl(*e.operands[0], renames, inner));
    return c;
  }
  for (const ExprPtr &op : e.operands)
    c->operands.push_back(renameImpl(*op, renames, bound));
  return c;
}

ExprPtr mlir::tad::rules::renameIdentifiers(
    const Expr &e, const llvm::StringMap<std::string> &renames) {
  return renameImpl(e, renames, {});
}

static ExprPtr substituteImpl(const Expr &e,
                              const llvm::StringMap<const Expr *> &repl,
                              const llvm::StringSet<> &bound) {
  if (e.kind == Kind::Identifier && !bound.contains(e.name)) {
    auto it = repl.find(e.name);
    if (it != repl.end())
      return cloneExpr(*it->second);
  }
  auto c = std::make_unique<Expr>(e.kind, e.name, e.offset);
  c->templateArgs = e.templateArgs;
  llvm::StringSet<> inner = bound;
  if (e.kind == Kind::Lambda)
    for (const auto &p : lambdaParams(e.name))
      inner.insert(p.getKey());
  for (const ExprPtr &op : e.operands)
    c->operands.push_back(substituteImpl(*op, repl, inner));
  return c;
}

ExprPtr mlir::tad::rules::substituteIdentifiers(
    const Expr &e, const llvm::StringMap<const Expr *> &replacements) {
  return substituteImpl(e, replacements, {});
}

static void collectImpl(const Expr &e, const llvm::StringSet<> &bound,
                        llvm::SmallVectorImpl<const Expr *> &out) {
  if (e.kind == Kind::Identifier && !bound.contains(e.name))
    out.push_back(&e);
  if (e.kind == Kind::Lambda) {
    llvm::StringSet<> inner = bound;
    for (const auto &p : lambdaParams(e.name))
      inner.insert(p.getKey());
    collectImpl(*e.operands[0], inner, out);
    return;
  }
  for (const ExprPtr &op : e.operands)
    collectImpl(*op, bound, out);
}

void mlir::tad::rules::collectIdentifiers(
    const Expr &e, llvm::SmallVectorImpl<std::string> &out) {
  SmallVector<const Expr *> nodes;
  collectImpl(e, {}, nodes);
  for (const Expr *node : nodes)
    out.push_back(node->name);
}

void mlir::tad::rules::collectFreeIdentifiers(
    const Expr &e, llvm::SmallVectorImpl<const Expr *> &out) {
  collectImpl(e, {}, out);
}

void mlir::tad::rules::walkExpr(const Expr &e,
                                llvm::function_ref<void(const Expr &)> fn) {
  fn(e);
  for (const ExprPtr &op : e.operands)
    walkExpr(*op, fn);
}
