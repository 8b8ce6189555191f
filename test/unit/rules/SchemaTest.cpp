//===- SchemaTest.cpp - schema parser tests -------------------------------===//

#include "compiler/rules/Schema.h"

#include <gtest/gtest.h>

using namespace mlir::tad::rules;

namespace {
Schema parseOk(llvm::StringRef text) {
  std::string error;
  llvm::FailureOr<Schema> s = parseSchema(text, error);
  EXPECT_TRUE(succeeded(s)) << text.str() << ": " << error;
  return succeeded(s) ? std::move(*s) : Schema();
}

/// Parses `text`, expects failure, and returns "offset: message".
std::string parseError(llvm::StringRef text) {
  std::string error;
  size_t offset = ~size_t(0);
  llvm::FailureOr<Schema> s = parseSchema(text, error, &offset);
  EXPECT_TRUE(failed(s)) << text.str();
  return std::to_string(offset) + ": " + error;
}

// Every form the schema grammar allows; each must print back unchanged.
const char *const kRoundTrip[] = {
    "relu(Tensor self) -> Tensor",
    "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
    "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> "
    "Tensor(a!)",
    "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, "
    "ScalarType? dtype=None) -> Tensor",
    "conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] "
    "stride=1, SymInt[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor",
    "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, "
    "Tensor indices)",
    "split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> "
    "Tensor(a)[]",
    "index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
    "cat(Tensor[] tensors, int dim=0) -> Tensor",
    "div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> "
    "Tensor",
    "pad(Tensor self, SymInt[] pad, str mode=\"constant\", float? value=None) "
    "-> Tensor",
    "nll_loss(Tensor self, Tensor target, Tensor? weight=None, int "
    "reduction=Mean, SymInt ignore_index=-100) -> Tensor",
    "svd_like(Tensor A, bool full_matrices=True, *, str? driver=None) -> "
    "(Tensor U, Tensor S, Tensor Vh)",
    "pair(Tensor self) -> (Tensor, Tensor)",
    "single_tuple(Tensor self) -> (Tensor)",
    "_foreach_zero_(Tensor(a!)[] self) -> ()",
    "aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> "
    "Tensor(a!)",
    "transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
    "grid_like(Tensor grid) -> Tensor output",
    "flash_like(Tensor q) -> (Tensor output, int max_q)",
    "dims_like(Tensor self, int[] dims=[0,1], float eps=1e-05, str "
    "reduction='mean', bool[3] mask=[True,False,True]) -> Tensor",
    "__iand__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
    "stats_like(Tensor input, Tensor(b!)? running_mean, Tensor(c!)? "
    "running_var, float momentum) -> (Tensor, Tensor)",
    "rand_like(Tensor self, *, Generator? generator=None, Layout? layout=None, "
    "Device? device=None, MemoryFormat? memory_format=None) -> Tensor",
    "alias_multi(Tensor(a|b) self) -> Tensor(a|b)",
    "no_args() -> Tensor",
    "opt_list(Tensor self, SymInt[]? size, Scalar[] values, "
    "__torch__.torch.classes.quantized.Packed packed) -> Tensor",
};
} // namespace

TEST(Schema, RoundTrip) {
  for (const char *text : kRoundTrip)
    EXPECT_EQ(parseOk(text).str(), text);
}

TEST(Schema, AddTensorStructure) {
  Schema s = parseOk(
      "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_EQ(s.ns, "");
  EXPECT_EQ(s.baseName, "add");
  EXPECT_EQ(s.overload, "Tensor");
  EXPECT_EQ(s.fullName(), "add.Tensor");
  EXPECT_FALSE(s.isInplace);
  ASSERT_EQ(s.arguments.size(), 3u);
  EXPECT_EQ(s.arguments[0].name, "self");
  EXPECT_TRUE(s.arguments[0].type.isTensor());
  EXPECT_FALSE(s.arguments[0].kwOnly);
  EXPECT_FALSE(s.arguments[1].kwOnly);
  EXPECT_TRUE(s.arguments[2].kwOnly);
  EXPECT_EQ(s.arguments[2].type.str(), "Scalar");
  EXPECT_EQ(*s.arguments[2].defaultValue, "1");
  EXPECT_EQ(s.findArgument("other"), 1);
  EXPECT_EQ(s.findArgument("missing"), -1);
  EXPECT_EQ(s.getArgument("missing"), nullptr);
  EXPECT_EQ(s.outputNames(), std::vector<std::string>{"result"});
  EXPECT_EQ(s.tensorLikeArguments(), (std::vector<unsigned>{0, 1}));
  EXPECT_FALSE(s.isOutVariant());
  EXPECT_FALSE(s.isView());
  EXPECT_FALSE(s.hasSymIntArguments());
}

TEST(Schema, TypesAreRightRecursive) {
  Schema s = parseOk("f(int[1]? dim, Tensor?[] indices, SymInt[2] stride, "
                     "Tensor(a!)? buf) -> Tensor");
  const SchemaType &dim = s.arguments[0].type;
  ASSERT_EQ(dim.kind, SchemaType::Kind::Optional);
  EXPECT_TRUE(dim.isOptional());
  const SchemaType &dimList = dim.stripOptional();
  ASSERT_EQ(dimList.kind, SchemaType::Kind::List);
  EXPECT_EQ(dimList.listSize, 1);
  EXPECT_EQ(dimList.element->base, "int");
  EXPECT_FALSE(dim.isTensorLike());

  const SchemaType &idx = s.arguments[1].type;
  ASSERT_TRUE(idx.isList());
  EXPECT_FALSE(idx.listSize.has_value());
  EXPECT_TRUE(idx.element->isOptional());
  EXPECT_TRUE(idx.isTensorLike());
  EXPECT_FALSE(idx.isTensor());
  EXPECT_EQ(&idx.stripOptional(), &idx);

  EXPECT_EQ(s.arguments[2].type.listSize, 2);
  EXPECT_EQ(s.arguments[2].type.innermost().base, "SymInt");
  EXPECT_TRUE(s.hasSymIntArguments());

  const SchemaArgument &buf = s.arguments[3];
  EXPECT_TRUE(buf.type.isTensorLike());
  EXPECT_TRUE(buf.type.stripOptional().isTensor());
  ASSERT_TRUE(buf.annotation.has_value());
  EXPECT_EQ(buf.str(), "Tensor(a!)? buf");
  EXPECT_EQ(s.tensorLikeArguments(), (std::vector<unsigned>{1, 3}));

  EXPECT_EQ(SchemaType::getOptional(
                SchemaType::getList(SchemaType::getBase("int"), 1)),
            dim);
  EXPECT_NE(dim, dimList);
  std::string error;
  auto t = parseSchemaType("Tensor?[]", error);
  ASSERT_TRUE(succeeded(t));
  EXPECT_EQ(*t, idx);
  EXPECT_EQ(t->str(), "Tensor?[]");
}

TEST(Schema, Annotations) {
  Schema s = parseOk("split.Tensor(Tensor(a -> *) self, SymInt split_size, "
                     "int dim=0) -> Tensor(a)[]");
  const AliasAnnotation &a = *s.arguments[0].annotation;
  EXPECT_EQ(a.text, "a -> *");
  EXPECT_FALSE(a.isWrite);
  EXPECT_EQ(a.aliasSet, std::vector<std::string>{"a"});
  EXPECT_EQ(a.afterSet, std::vector<std::string>{"*"});
  EXPECT_TRUE(s.isView());
  EXPECT_EQ(s.returns[0].type.str(), "Tensor[]");
  EXPECT_EQ(s.returns[0].annotation->text, "a");

  Schema m = parseOk("alias_multi(Tensor(a|b -> c) self) -> Tensor(a|b)");
  EXPECT_EQ(m.arguments[0].annotation->aliasSet,
            (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(m.arguments[0].annotation->afterSet, std::vector<std::string>{"c"});
}

TEST(Schema, InplaceOutAndNames) {
  Schema s = parseOk(
      "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> "
      "Tensor(a!)");
  EXPECT_TRUE(s.isInplace);
  EXPECT_EQ(s.baseName, "add_");
  EXPECT_EQ(s.functionalBaseName(), "add");
  EXPECT_TRUE(s.arguments[0].isWrite());
  EXPECT_TRUE(s.returns[0].isWrite());
  EXPECT_FALSE(s.isView());

  Schema d = parseOk("__iand__.Tensor(Tensor(a!) self, Tensor other) -> "
                     "Tensor(a!)");
  EXPECT_TRUE(d.isInplace);
  EXPECT_TRUE(d.isDunder);
  EXPECT_EQ(d.functionalBaseName(), "__and__");
  Schema dn = parseOk("__and__.Tensor(Tensor self, Tensor other) -> Tensor");
  EXPECT_FALSE(dn.isInplace);
  EXPECT_EQ(dn.functionalBaseName(), "__and__");

  Schema o =
      parseOk("aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> "
              "Tensor(a!)");
  EXPECT_EQ(o.ns, "aten");
  EXPECT_EQ(o.fullName(), "aten::mul.out");
  EXPECT_TRUE(o.isOutVariant());
  EXPECT_FALSE(o.isInplace);

  Schema f = parseOk("foo_functional(Tensor self) -> Tensor");
  EXPECT_TRUE(f.isFunctionalVariant);
  EXPECT_FALSE(f.isInplace);
}

TEST(Schema, OutputNames) {
  EXPECT_EQ(parseOk("f(Tensor self) -> (Tensor, Tensor, Tensor)").outputNames(),
            (std::vector<std::string>{"result0", "result1", "result2"}));
  EXPECT_EQ(parseOk("f(Tensor self) -> (Tensor values, Tensor indices)")
                .outputNames(),
            (std::vector<std::string>{"values", "indices"}));
  EXPECT_EQ(parseOk("f(Tensor q) -> Tensor output").outputNames(),
            std::vector<std::string>{"output"});
  EXPECT_EQ(parseOk("f(Tensor q) -> (Tensor self, Tensor b)").outputNames(),
            (std::vector<std::string>{"result", "b"}));
  EXPECT_TRUE(parseOk("f_(Tensor(a!)[] self) -> ()").outputNames().empty());
  EXPECT_EQ(parseOk("f(Tensor q) -> (Tensor)").outputNames(),
            std::vector<std::string>{"result"});
}

TEST(Schema, SyntaxErrors) {
  EXPECT_EQ(parseError("relu"), "4: expected '(' after the operator name");
  EXPECT_EQ(parseError("relu(Tensor self) Tensor"),
            "17: expected ' -> ' after the argument list");
  EXPECT_EQ(parseError("relu(Tensor self)  -> Tensor"),
            "17: expected ' -> ' after the argument list");
  EXPECT_EQ(parseError("relu(Tensor self -> Tensor"),
            "4: unbalanced '(' in schema");
  EXPECT_EQ(parseError("(Tensor self) -> Tensor"), "0: missing operator name");
  EXPECT_EQ(parseError("1relu(Tensor self) -> Tensor"),
            "0: invalid operator name '1relu'");
  EXPECT_EQ(parseError("relu.(Tensor self) -> Tensor"),
            "4: invalid overload name ''");
  EXPECT_EQ(parseError("relu.a-b(Tensor self) -> Tensor"),
            "5: invalid overload name 'a-b'");
  EXPECT_EQ(parseError("a b::relu(Tensor self) -> Tensor"),
            "0: invalid namespace 'a b'");
  EXPECT_EQ(parseError("f(Tensor self, *, *, int a) -> Tensor"),
            "18: '*' may appear only once in an argument list");
  EXPECT_EQ(parseError("f(Tensor self, *) -> Tensor"),
            "15: '*' must be followed by keyword-only arguments");
  EXPECT_EQ(parseError("f(Tensor self, ) -> Tensor"), "15: empty argument");
  EXPECT_EQ(parseError("f( Tensor self) -> Tensor"),
            "2: unexpected whitespace around argument ' Tensor self'");
  EXPECT_EQ(parseError("f(Tensor self=) -> Tensor"),
            "13: missing default value for 'Tensor self'");
  EXPECT_EQ(parseError("f(Tensor) -> Tensor"),
            "2: expected 'TYPE NAME' in argument 'Tensor'");
  EXPECT_EQ(parseError("f(Tensor 1x) -> Tensor"),
            "9: invalid argument name '1x'");
  EXPECT_EQ(parseError("f(Tensor  self) -> Tensor"),
            "8: unexpected ' ' in type 'Tensor '");
  EXPECT_EQ(parseError("f(Foo x) -> Tensor"), "2: unknown type 'Foo'");
  EXPECT_EQ(parseError("f(?int x) -> Tensor"),
            "2: expected a type name in '?int'");
  EXPECT_EQ(parseError("f(int[x] a) -> Tensor"),
            "6: invalid list size 'x' in type 'int[x]'");
  EXPECT_EQ(parseError("f(int[-1] a) -> Tensor"),
            "6: invalid list size '-1' in type 'int[-1]'");
  EXPECT_EQ(parseError("f(Tensor self) -> "), "18: missing return type");
  EXPECT_EQ(parseError("f(Tensor self) -> (Tensor, Tensor"),
            "18: expected ')' at the end of the return list");
  EXPECT_EQ(parseError("f(Tensor self) -> (Tensor, )"), "27: empty return");
  EXPECT_EQ(parseError("f(Tensor self) -> Tensor 1x"),
            "25: invalid return name '1x'");
  EXPECT_EQ(parseError("f(Tensor self) -> Tensorx"),
            "18: unknown type 'Tensorx'");
}

TEST(Schema, TypeErrors) {
  std::string error;
  EXPECT_TRUE(failed(parseSchemaType("int[2", error)));
  EXPECT_EQ(error, "unterminated list type in 'int[2'");
  EXPECT_TRUE(failed(parseSchemaType("Tensor(a", error)));
  EXPECT_EQ(error, "unterminated alias annotation in 'Tensor(a'");
  EXPECT_TRUE(failed(parseSchemaType("Tensor(a)", error)));
  EXPECT_EQ(error, "unexpected alias annotation in 'Tensor(a)'");
  EXPECT_TRUE(failed(parseSchemaType("int?x", error)));
  EXPECT_EQ(error, "unexpected 'x' in type 'int?x'");
}

TEST(Schema, AnnotationErrors) {
  EXPECT_EQ(parseError("f(int(a!) x) -> Tensor"),
            "2: alias annotation on non-tensor type 'int(a!)'");
  EXPECT_EQ(parseError("f(Tensor(A) x) -> Tensor"),
            "9: invalid alias annotation 'A' (expected e.g. 'a', 'a!', "
            "'a|b', 'a -> *')");
  EXPECT_EQ(parseError("f(Tensor(a|b!) x) -> Tensor"),
            "9: alias annotation 'a|b!' cannot combine a write mark with "
            "several alias sets");
  EXPECT_EQ(parseError("f(Tensor(a -> ) x) -> Tensor"),
            "9: expected an alias set after '->' in annotation 'a -> '");
  EXPECT_EQ(parseError("f(Tensor(a -> B) x) -> Tensor"),
            "9: invalid alias annotation 'a -> B'");
}

TEST(Schema, VerificationErrors) {
  EXPECT_EQ(parseError("mul_out(Tensor self) -> Tensor"),
            "0: operator name 'mul_out' may not end in '_out' (use an "
            "overload name)");
  EXPECT_EQ(parseError("f(Tensor x, Tensor x) -> Tensor"),
            "0: duplicate argument name 'x'");
  EXPECT_EQ(parseError("f.out(Tensor self, *, Tensor(a!) out, int x) -> "
                       "Tensor(a!)"),
            "0: non-out argument 'x' may not follow the out arguments");
  EXPECT_EQ(parseError("f(Tensor(a!) self, Tensor(b!) other) -> "
                       "(Tensor(a!), Tensor)"),
            "0: returns must be all mutable or all immutable");
  EXPECT_EQ(parseError("f(Tensor self) -> Tensor(a!)"),
            "0: mutable return 'Tensor(a!)' does not alias a mutable "
            "argument");
  EXPECT_EQ(parseError("relu_(Tensor self) -> Tensor"),
            "0: inplace operator 'relu_' must have a mutable 'self' argument");
  EXPECT_EQ(parseError("relu_(Tensor(a!) self) -> Tensor"),
            "0: inplace operator 'relu_' must return exactly 'self' "
            "(Tensor(a!))");
  EXPECT_EQ(parseError("relu_(Tensor(a!) self) -> (Tensor(a!), Tensor(a!))"),
            "0: inplace operator 'relu_' must return exactly 'self' "
            "(Tensor(a!))");
  EXPECT_EQ(parseError("_foreach_f_(Tensor(a!)[] self) -> Tensor"),
            "0: inplace operator '_foreach_f_' with non-Tensor 'self' must "
            "return nothing");
  EXPECT_EQ(parseError("f_(Tensor(a!) self, *, Tensor(b!) out) -> "
                       "Tensor(a!)"),
            "0: schema cannot be both inplace and out");
  EXPECT_EQ(parseError("f.out(Tensor self, *, Tensor(a!)[] out) -> "
                       "Tensor(a!)"),
            "0: out variant with non-Tensor out arguments must return "
            "nothing");
  EXPECT_EQ(parseError("f.out(Tensor self, *, Tensor(a!) out, Tensor(b!) "
                       "out2) -> Tensor(a!)"),
            "0: out variant has 2 out arguments but 1 returns");
  EXPECT_EQ(parseError("f.out(Tensor self, *, Tensor(a!) out) -> Tensor"),
            "0: return 'Tensor' must carry the annotation of out argument "
            "'out' (a!)");
  EXPECT_EQ(parseError("f.out(Tensor self, *, Tensor(a!) out, Tensor(b!) "
                       "out2) -> (Tensor(b!), Tensor(a!))"),
            "0: return 'Tensor(b!)' must carry the annotation of out argument "
            "'out' (a!)");
  EXPECT_EQ(parseError("f.functional(Tensor(a!) self) -> Tensor(a!)"),
            "0: overload 'functional' names a functional variant but the "
            "schema mutates an argument");
  // Scratch out arguments are not counted against the returns.
  parseOk("f.out(Tensor self, *, Tensor(a!) _scratch_buf, Tensor(b!) out) -> "
          "Tensor(b!)");
}

TEST(Schema, VerifySchemaDirectly) {
  Schema s = parseOk("f(Tensor self) -> Tensor");
  s.arguments.push_back(s.arguments[0]);
  std::string error;
  EXPECT_TRUE(failed(verifySchema(s, error)));
  EXPECT_EQ(error, "duplicate argument name 'self'");
}

// Types nest right-recursively; a bound keeps hostile input off deep
// recursion (found by fuzzing the schema parser).
TEST(Schema, TypeSuffixLimit) {
  std::string error;
  EXPECT_TRUE(succeeded(parseSchema("f(Tensor?[][][] x) -> Tensor", error)));
  std::string deep = "f(int" + std::string(18, '?') + " x) -> Tensor";
  EXPECT_EQ(parseError(deep),
            "13: type 'int" + std::string(18, '?') +
                "' has more than 8 '?' and '[]' suffixes");
}
