//===- ParseInput.cpp - parsing a tad program -----------------------------===//

#include "compiler/ParseInput.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

/// The first `array<index` outside comments and string literals, as an
/// offset into `text`, or npos.
static size_t findIndexDenseArray(StringRef text) {
  bool inString = false;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '/' && text.substr(i).starts_with("//")) {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        return StringRef::npos;
    } else if (c == 'a' && text.substr(i).starts_with("array<")) {
      StringRef rest = text.substr(i + 6).ltrim();
      if (rest.starts_with("index") &&
          (rest.size() == 5 || !(llvm::isAlnum(rest[5]) || rest[5] == '_')))
        return i;
    }
  }
  return StringRef::npos;
}

std::optional<tad::ParserHazard> tad::findParserHazard(StringRef text) {
  size_t offset = findIndexDenseArray(text);
  if (offset == StringRef::npos)
    return std::nullopt;
  return ParserHazard{offset, "dense arrays of 'index' elements are not "
                              "supported; use array<i64: ...>"};
}

OwningOpRef<ModuleOp> tad::parseInput(llvm::SourceMgr &sourceMgr,
                                      MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringRef text = buffer->getBuffer();
  if (std::optional<ParserHazard> hazard = findParserHazard(text)) {
    auto [line, column] = sourceMgr.getLineAndColumn(
        llvm::SMLoc::getFromPointer(text.data() + hazard->offset));
    emitError(FileLineColLoc::get(context, buffer->getBufferIdentifier(),
                                  line, column))
        << hazard->message;
    return nullptr;
  }
  return parseSourceFile<ModuleOp>(sourceMgr, context);
}
