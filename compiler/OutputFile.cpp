//===- OutputFile.cpp - outputs written in full or not at all -------------===//

#include "compiler/OutputFile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"

using namespace mlir;
using namespace mlir::tad;

static InFlightDiagnostic cannotWrite(MLIRContext *context, StringRef path,
                                      std::error_code error) {
  return emitError(UnknownLoc::get(context))
         << "cannot write '" << path << "': " << error.message();
}

FailureOr<std::unique_ptr<AtomicOutput>>
AtomicOutput::create(MLIRContext *context, StringRef path) {
  auto output = std::unique_ptr<AtomicOutput>(new AtomicOutput(path));
  int fd;
  SmallString<256> model(path);
  model += ".tmp-%%%%%%";
  if (std::error_code error =
          llvm::sys::fs::createUniqueFile(model, fd, output->tempPath))
    return cannotWrite(context, path, error);
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  output->remover.setFile(output->tempPath);
  return output;
}

LogicalResult AtomicOutput::commit(MLIRContext *context) {
  if (std::error_code error = llvm::sys::fs::rename(tempPath, path))
    return cannotWrite(context, path, error);
  remover.releaseFile();
  return success();
}

bool mlir::tad::isSpecialFile(StringRef path) {
  llvm::sys::fs::file_status status;
  return !llvm::sys::fs::status(path, status) &&
         llvm::sys::fs::exists(status) &&
         status.type() != llvm::sys::fs::file_type::regular_file;
}

LogicalResult mlir::tad::writeOutputFile(
    MLIRContext *context, StringRef path,
    function_ref<LogicalResult(llvm::raw_pwrite_stream &)> write) {
  if (path == "-" || isSpecialFile(path)) {
    std::error_code error;
    std::unique_ptr<llvm::raw_fd_ostream> file;
    if (path != "-") {
      file = std::make_unique<llvm::raw_fd_ostream>(path, error);
      if (error)
        return cannotWrite(context, path, error);
    }
    llvm::raw_fd_ostream &os = file ? *file : llvm::outs();
    if (failed(write(os)))
      return failure();
    os.flush();
    if (os.has_error()) {
      error = os.error();
      os.clear_error();
      return cannotWrite(context, path, error);
    }
    return success();
  }
  FailureOr<std::unique_ptr<AtomicOutput>> output =
      AtomicOutput::create(context, path);
  if (failed(output))
    return failure();
  {
    std::error_code error;
    llvm::raw_fd_ostream os((*output)->getTempPath(), error);
    if (error)
      return cannotWrite(context, path, error);
    if (failed(write(os)))
      return failure();
    os.close();
    if (os.has_error())
      return cannotWrite(context, path, os.error());
  }
  return (*output)->commit(context);
}

LogicalResult mlir::tad::copyToOutputFile(MLIRContext *context,
                                          StringRef producedPath,
                                          StringRef path) {
  auto produced = llvm::MemoryBuffer::getFile(producedPath, /*IsText=*/false);
  if (!produced)
    return emitError(UnknownLoc::get(context))
           << "cannot read '" << producedPath
           << "': " << produced.getError().message();
  return writeOutputFile(context, path, [&](llvm::raw_pwrite_stream &os) {
    os << (*produced)->getBuffer();
    return success();
  });
}
