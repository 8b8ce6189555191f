//===- tadc.cpp - the tad compiler driver ---------------------------------===//
//
//   tadc INPUT.mlir [-o OUT] [--vjp=f,g] [--jvp=f] [--rules=FILE]...
//        [--target=cpu|cuda] [--gpu-arch=sm_80|sm_90] [--cuda-path=DIR]
//        [--emit=mlir|linalg|llvm-mlir|llvm|obj|so|header|ptx]
//        [-O0|-O1|-O2|-O3] [--runtime-lib=PATH]
//
// plus MLIR's context, pass manager, timing and printing options
// (--mlir-timing, --mlir-print-ir-after-all, ...). Reads a module in the tad
// dialect (or plain func/linalg/tensor/arith/math), differentiates the
// requested functions, lowers to the LLVM dialect and writes the result of
// the requested stage (compiler/Driver.h). This file holds the command line
// and the reading of the input; errors are diagnostics on stderr with exit
// code 1, and no output file is left behind (compiler/OutputFile.h).
//
//===----------------------------------------------------------------------===//
#include "compiler/Driver.h"
#include "compiler/Linker.h"
#include "compiler/ParseInput.h"
#include "compiler/rules/RuleSet.h"
#include "dialects/Tad/TadDialect.h"
#include "dialects/Tad/TadOps.h"
#include "passes/ABI/ABI.h"
#include "passes/CPU/HostMachine.h"
#include "tools/tadc/RuleCommands.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

using Target = tad::PipelineTarget;
using Emit = tad::OutputKind;

static cl::OptionCategory tadcCategory("tadc options");

static cl::opt<std::string>
    inputFilename(cl::Positional, cl::desc("<input .mlir file>"), cl::init("-"),
                  cl::value_desc("filename"), cl::cat(tadcCategory));

static cl::opt<std::string>
    outputFilename("o",
                   cl::desc("Output file (default: input stem + the "
                            "extension of --emit; '-' for stdout)"),
                   cl::value_desc("filename"), cl::cat(tadcCategory));

static cl::list<std::string>
    vjpFunctions("vjp", cl::desc("Generate reverse-mode derivatives @f_vjp"),
                 cl::CommaSeparated, cl::value_desc("f,g"),
                 cl::cat(tadcCategory));

static cl::list<std::string>
    jvpFunctions("jvp", cl::desc("Generate forward-mode derivatives @f_jvp"),
                 cl::CommaSeparated, cl::value_desc("f,g"),
                 cl::cat(tadcCategory));

static cl::list<std::string>
    ruleFiles("rules",
              cl::desc("Derivative rule file adding or overriding rules"),
              cl::value_desc("file.yaml"), cl::cat(tadcCategory));
static cl::opt<std::string> checkpoint(
    "checkpoint",
    cl::desc("Reverse sweep of loops without a tad.checkpoint attribute: "
             "'store' every iteration (default), 'sqrt' (checkpoints every "
             "ceil(sqrt(n)) iterations, segments recomputed), a segment "
             "length k, or 'levels:L' (segments of about n^((L-1)/L) "
             "iterations segmented again, L levels: about L*n^(1/L) "
             "checkpoints, L forward passes), or 'revolve:S' (binomial "
             "checkpointing: at most S snapshots of the carried values)"),
    cl::value_desc("store|sqrt|k|levels:L|revolve:S"), cl::init("store"), cl::cat(tadcCategory));

static cl::list<std::string> keepOps(
    "keep-ops",
    cl::desc("Ops that tad-decompose keeps whole, so that their own rules "
             "apply (default: _softmax,_log_softmax; 'none' decomposes all)"),
    cl::CommaSeparated, cl::cat(tadcCategory));

static cl::opt<Target>
    target("target", cl::desc("Code generation target"), cl::init(Target::CPU),
           cl::values(clEnumValN(Target::CPU, "cpu", "the host CPU"),
                      clEnumValN(Target::CUDA, "cuda", "NVIDIA GPUs (PTX)")),
           cl::cat(tadcCategory));

static cl::opt<Emit> emit(
    "emit", cl::desc("What to write"), cl::init(Emit::SharedObject),
    cl::values(
        clEnumValN(Emit::MLIR, "mlir", "the tad dialect after differentiation"),
        clEnumValN(Emit::Linalg, "linalg", "linalg on tensors"),
        clEnumValN(Emit::LLVMDialect, "llvm-mlir",
                   "the LLVM dialect with the C ABI entry points"),
        clEnumValN(Emit::LLVMIR, "llvm", "optimized LLVM IR for the host"),
        clEnumValN(Emit::Object, "obj", "an object file"),
        clEnumValN(Emit::SharedObject, "so", "a shared object (default)"),
        clEnumValN(Emit::Header, "header", "a C header for the module"),
        clEnumValN(Emit::PTX, "ptx",
                   "the PTX of the kernels (--target=cuda)")),
    cl::cat(tadcCategory));

static cl::opt<std::string>
    gpuArch("gpu-arch",
            cl::desc("NVIDIA architecture for --target=cuda: sm_80 or sm_90 "
                     "(default)"),
            cl::init("sm_90"), cl::value_desc("sm_XX"), cl::cat(tadcCategory));

static cl::opt<std::string> cudaPath(
    "cuda-path",
    cl::desc("CUDA toolkit directory for --target=cuda, where libdevice "
             "(math functions) is found (default: the first with libdevice "
             "of $CUDA_ROOT, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, "
             "/usr/lib/cuda, /opt/cuda)"),
    cl::value_desc("dir"), cl::cat(tadcCategory));

static cl::opt<bool> gpuEmulate(
    "gpu-emulate",
    cl::desc("Testing aid for --target=cuda without a GPU: run the GPU "
             "pipeline's kernels as loops on the host CPU (no PTX)"),
    cl::Hidden, cl::cat(tadcCategory));

enum class GpuKernels { Naive, Tiled };
static cl::opt<GpuKernels> gpuKernels(
    "gpu-kernels",
    cl::desc("Matmul kernels for --target=cuda (default naive)"),
    cl::values(clEnumValN(GpuKernels::Naive, "naive",
                          "one thread per output element, sequential k loop "
                          "(verified under --gpu-emulate)"),
               clEnumValN(GpuKernels::Tiled, "tiled",
                          "64x64 shared-memory tiles, a 4x4 register tile "
                          "per thread (PTX checked by ptxas; its CPU "
                          "emulation is checked, not yet run on a GPU)")),
    cl::init(GpuKernels::Naive), cl::cat(tadcCategory));

static cl::opt<unsigned>
    optLevel("O", cl::desc("Optimization level (-O0 to -O3, default -O2)"),
             cl::Prefix, cl::init(2), cl::value_desc("level"),
             cl::cat(tadcCategory));

static cl::list<int64_t> matmulCacheTiles(
    "matmul-cache-tiles",
    cl::desc("Cache tile sizes mc,nc,kc for matmul-like ops at -O2+ "
             "(default: from the host's cache sizes)"),
    cl::CommaSeparated, cl::value_desc("mc,nc,kc"), cl::cat(tadcCategory));
static cl::list<int64_t> matmulRegisterTile(
    "matmul-register-tile",
    cl::desc("Register tile mr,nr for matmul-like ops at -O2+ (default: "
             "from the host's vector width)"),
    cl::CommaSeparated, cl::value_desc("mr,nr"), cl::cat(tadcCategory));
static cl::list<int64_t> dynamicBlocks(
    "dynamic-blocks",
    cl::desc("Blocks of ops over a dynamic batch at -O2+: matmul rows in "
             "small blocks (and the zero-padded rest), large blocks, then "
             "a quarter of them...; iterations per block of other ops "
             "(default: 8,1024,262144; docs/dynamic-shapes.md)"),
    cl::CommaSeparated, cl::value_desc("rows,large,work"),
    cl::cat(tadcCategory));
static cl::opt<bool> matmulPack(
    "matmul-pack",
    cl::desc("Copy the B operand of large matmuls into register-tile-wide "
             "panels, and a transposed A operand into cache-tile-wide ones, "
             "before the kernel at -O2+ (default: on)"),
    cl::init(true), cl::cat(tadcCategory));
static cl::opt<int64_t> im2colLimitMiB(
    "im2col-limit-mib",
    cl::desc("At -O2+, compute a 2-D convolution with unit strides and "
             "dilations whose im2col matrix would exceed this many MiB as "
             "implicit GEMM, without the matrix (default: 256; 0: wherever "
             "implicit GEMM applies; on the bf16 kernels also below it where "
             "the maps are large; docs/performance.md)"),
    cl::init(256), cl::cat(tadcCategory));
static cl::opt<bool> rowReductions(
    "row-reductions",
    cl::desc("Vectorize reductions along short contiguous rows (a layer "
             "norm's or softmax's features) along the row at -O2+ "
             "(default: on)"),
    cl::init(true), cl::cat(tadcCategory));
static cl::opt<bool> parallel(
    "parallel",
    cl::desc("Run the outer loops of large matmul-like ops on all cores "
             "with OpenMP at -O2+ (default: on where tad was built with "
             "libomp; --parallel=false for single-threaded code)"),
    cl::init(true), cl::cat(tadcCategory));
static cl::opt<bool> outlineKernels(
    "outline-kernels",
    cl::desc("Make each distinct linalg op one shared function at -O2+, "
             "compiled once however often it recurs (default: on; "
             "--outline-kernels=false inlines them all)"),
    cl::init(true), cl::cat(tadcCategory));
static cl::opt<unsigned> maxFunctionOps(
    "max-function-ops",
    cl::desc("At -O1+, split functions of more ops than this into calls of "
             "pieces of about this many, which LLVM compiles in time linear "
             "in their number (default: 4000; 0: never)"),
    cl::init(4000), cl::cat(tadcCategory));
static cl::opt<bool> printSchedule(
    "print-schedule",
    cl::desc("Print the tile sizes chosen for each matmul-like op"),
    cl::cat(tadcCategory));

static cl::opt<std::string>
    runtimeLib("runtime-lib",
               cl::desc("The runtime archive to link (default: "
                        "<tadc directory>/../lib/libtad_runtime.a)"),
               cl::value_desc("path"), cl::cat(tadcCategory));

static cl::opt<bool> printHostMachine(
    "print-host-machine",
    cl::desc("Print the machine model the CPU schedules use (vector width, "
             "cache sizes, cores; each with where it came from) and exit. "
             "TAD_HOST_VECTOR_BITS, TAD_HOST_VECTOR_REGISTERS, "
             "TAD_HOST_L1_BYTES, TAD_HOST_L2_BYTES and TAD_HOST_CORES pin it"),
    cl::cat(tadcCategory));

static cl::opt<bool> listOps(
    "list-ops",
    cl::desc("Print every tad op (name, ATen schema, attributes) and exit"),
    cl::cat(tadcCategory));

/// One line per op, tab-separated: `tad.NAME`, its ATen schema (or `-`),
/// its attribute names joined by commas. The importer reads this.
static int printOpList(MLIRContext &context) {
  context.getOrLoadDialect<tad::TadDialect>();
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    if (name.getDialectNamespace() != tad::TadDialect::getDialectNamespace())
      continue;
    auto *aten = name.getInterface<tad::AtenOpInterface>();
    llvm::outs() << name.getStringRef() << "\t"
                 << (aten ? aten->getAtenSchema() : StringRef("-")) << "\t";
    llvm::interleave(
        name.getAttributeNames(), llvm::outs(),
        [](StringAttr attr) { llvm::outs() << attr.getValue(); }, ",");
    llvm::outs() << "\n";
  }
  return 0;
}

static void installRuleLoader() {
  tad::registerDefaultRuleLoader();
}

/// The output path: -o, else the input's stem with the extension of `kind`
/// next to the input ("-" for textual output of stdin input, "a.o"/"a.so"
/// for binary output of stdin input).
static std::string getOutputPath(Emit kind) {
  if (!outputFilename.empty())
    return outputFilename;
  if (inputFilename == "-")
    return tad::isTextualOutput(kind)
               ? "-"
               : ("a" + tad::getOutputExtension(kind)).str();
  SmallString<256> path(inputFilename);
  llvm::sys::path::replace_extension(path, "");
  path += tad::getOutputExtension(kind);
  return std::string(path);
}

/// The pipeline options that the command line sets.
static void setPipelineOptions(tad::TadPipelineOptions &pipeline) {
  auto assign = [](auto &listOption, const auto &values) {
    listOption = ArrayRef(llvm::to_vector(values));
  };
  assign(pipeline.vjp, vjpFunctions);
  assign(pipeline.jvp, jvpFunctions);
  assign(pipeline.ruleFiles, ruleFiles);
  pipeline.checkpoint = checkpoint;
  if (keepOps.getNumOccurrences())
    assign(pipeline.keepOps, keepOps);
  pipeline.target = target;
  pipeline.optLevel = optLevel;
  assign(pipeline.matmulCacheTiles, matmulCacheTiles);
  assign(pipeline.matmulRegisterTile, matmulRegisterTile);
  assign(pipeline.dynamicBlocks, dynamicBlocks);
  pipeline.matmulPack = matmulPack;
  pipeline.im2colLimitMiB = im2colLimitMiB;
  pipeline.rowReductions = rowReductions;
  pipeline.parallel = parallel;
  pipeline.outlineKernels = outlineKernels;
  pipeline.maxFunctionOps = maxFunctionOps;
  pipeline.printSchedule = printSchedule;
  pipeline.chip = gpuArch.getValue();
  pipeline.cudaPath = cudaPath.getValue();
  pipeline.kernels = gpuKernels == GpuKernels::Tiled ? "tiled" : "naive";
  pipeline.emulate = gpuEmulate;
}

static LogicalResult compile(MLIRContext &context, llvm::SourceMgr &sourceMgr,
                             TimingScope &timing, const char *argv0) {
  // GPU options given without --target=cuda (verifyCompileOptions checks
  // the values).
  if (target != Target::CUDA &&
      (emit == Emit::PTX || gpuArch.getNumOccurrences() ||
       cudaPath.getNumOccurrences() || gpuEmulate ||
       gpuKernels.getNumOccurrences()))
    return emitError(UnknownLoc::get(&context))
           << (emit == Emit::PTX                 ? "--emit=ptx"
               : gpuArch.getNumOccurrences()     ? "--gpu-arch"
               : cudaPath.getNumOccurrences()    ? "--cuda-path"
               : gpuKernels.getNumOccurrences()  ? "--gpu-kernels"
                                                 : "--gpu-emulate")
           << " needs --target=cuda";
  tad::TadPipelineOptions pipeline;
  setPipelineOptions(pipeline);
  tad::OutputOptions output;
  output.kind = emit;
  output.path = getOutputPath(emit);
  if (failed(tad::verifyCompileOptions(&context, pipeline, output)))
    return failure();
  if (output.path != "-" && inputFilename != "-" &&
      llvm::sys::fs::equivalent(inputFilename, output.path))
    return emitError(UnknownLoc::get(&context))
           << "output '" << output.path << "' would overwrite the input";
  StringRef stem = llvm::sys::path::stem(
      output.path == "-" ? inputFilename.getValue() : output.path);
  output.headerName = stem == "-" ? "module" : stem.str();

  // The runtime archive is needed only to link, but a missing one is
  // better reported before compiling.
  if (emit == Emit::SharedObject) {
    FailureOr<std::string> found = tad::findRuntimeLibrary(
        &context, argv0, reinterpret_cast<void *>(&installRuleLoader),
        runtimeLib);
    if (failed(found))
      return failure();
    output.runtimeArchive = *found;
  }

  OwningOpRef<ModuleOp> module;
  {
    TimingScope parseTiming = timing.nest("Parse");
    module = tad::parseInput(sourceMgr, &context);
    if (!module)
      return failure();
  }
  return tad::compileModule(*module, pipeline, output, timing);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  registerAsmPrinterCLOptions();
  tad::registerRuleCommandOptions(tadcCategory);
  // The shared LLVM library registers hundreds of backend options: --help
  // shows tadc's own and MLIR's (--mlir-*), --help-hidden all of them.
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    bool isTadc = llvm::is_contained(option->Categories, &tadcCategory);
    if (!isTadc && !entry.first.starts_with("mlir-") &&
        option->getOptionHiddenFlag() == cl::NotHidden)
      option->setHiddenFlag(cl::Hidden);
  }
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "tadc (tad) " << tad::abi::kTadVersion << ", C ABI version "
       << tad::abi::kAbiVersion << "\n  built with LLVM/MLIR " LLVM_VERSION_STRING
          "\n";
  });
  cl::ParseCommandLineOptions(argc, argv, "tad compiler\n");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<tad::TadDialect>();
  MLIRContext context(registry);
  installRuleLoader();
  if (listOps)
    return printOpList(context);
  if (printHostMachine) {
    tad::hostMachine().print(llvm::outs());
    return 0;
  }
  // A schedule sized from guessed caches is slower, not wrong; say so once.
  if (target == Target::CPU && tad::hostMachine().usesDefaults()) {
    llvm::WithColor::note(llvm::errs(), "tadc")
        << "host detection failed for part of the machine model; the CPU "
           "schedule uses these values (pin them with TAD_HOST_*):\n";
    tad::hostMachine().print(llvm::errs());
  }
  // An error about a whole function or module would print all of it;
  // --mlir-print-op-on-diagnostic asks for that explicitly.
  cl::Option *printOp =
      cl::getRegisteredOptions().lookup("mlir-print-op-on-diagnostic");
  if (!printOp || printOp->getNumOccurrences() == 0)
    context.printOpOnDiagnostic(false);
  // --check-rules / --explain-rule read rule files, not a module.
  if (std::optional<int> rc = tad::runRuleCommands(
          context, std::vector<std::string>(ruleFiles.begin(), ruleFiles.end())))
    return *rc;

  // Diagnostics with file:line:col; count errors so that a failure without
  // any diagnostic still says something.
  llvm::SourceMgr sourceMgr;
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::WithColor::error(llvm::errs(), "tadc") << errorMessage << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(input), SMLoc());
  SourceMgrDiagnosticHandler sourceMgrHandler(sourceMgr, &context);
  unsigned numErrors = 0;
  ScopedDiagnosticHandler toolDiagnostics(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++numErrors;
    // Errors about the invocation (output files, linking) have no location
    // in the input: print them as the tool's own.
    if (!isa<UnknownLoc>(diag.getLocation()))
      return failure(); // The SourceMgr handler prints it with file:line:col.
    llvm::raw_ostream &os = llvm::errs();
    switch (diag.getSeverity()) {
    case DiagnosticSeverity::Error:
      llvm::WithColor::error(os, "tadc");
      break;
    case DiagnosticSeverity::Warning:
      llvm::WithColor::warning(os, "tadc");
      break;
    default:
      llvm::WithColor::note(os, "tadc");
      break;
    }
    os << diag << "\n";
    for (const Diagnostic &note : diag.getNotes())
      llvm::WithColor::note(os, "tadc") << note << "\n";
    return success();
  });

  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timing = timingManager.getRootScope();

  if (failed(compile(context, sourceMgr, timing, argv[0]))) {
    if (numErrors == 0)
      llvm::WithColor::error(llvm::errs(), "tadc") << "compilation failed\n";
    return 1;
  }
  return 0;
}
