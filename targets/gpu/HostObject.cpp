// The host object of a GPU model: its tlc_gpu_program and the NAME_init/run/release wrappers.
#include "targets/gpu/GPUProgram.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include "tlc/gpu.h"

using namespace llvm;

namespace {

/// Builds the LLVM constants of tlc/gpu.h's structs; their layout is C's on the host ABI,
/// which an unpacked LLVM struct of the same fields reproduces.
class ProgramBuilder {
public:
  ProgramBuilder(Module &module, const tlc::GPUProgram &program)
      : module(module), program(program), ctx(module.getContext()), i32(Type::getInt32Ty(ctx)),
        i64(Type::getInt64Ty(ctx)), ptr(PointerType::getUnqual(ctx)) {
    argType = StructType::create(ctx, {i32, i32, i64, i64}, "tlc_gpu_arg");
    auto dims = ArrayType::get(i32, 3);
    kernelType = StructType::create(ctx, {ptr, dims, dims, i32, i32, ptr}, "tlc_gpu_kernel");
    constantType = StructType::create(ctx, {ptr, i64}, "tlc_gpu_constant");
    programType = StructType::create(
        ctx, {i32, i32, ptr, ptr, i64, ptr, i32, ptr, i32, ptr, i32, ptr, i64, i32, ptr},
        "tlc_gpu_program");
  }

  GlobalVariable *build() {
    std::string prefix = program.name + "_";
    // Text code (PTX, MSL) must be NUL-terminated; one byte past SPIR-V's words is never read.
    std::string bytes(program.code.begin(), program.code.end());
    bytes.push_back('\0');
    Constant *code = ConstantDataArray::getRaw(bytes, bytes.size(), Type::getInt8Ty(ctx));
    GlobalVariable *codeGlobal = global(prefix + "code", code, 16);
    SmallVector<Constant *> kernels;
    for (const tlc::GPUKernelLaunch &k : program.kernels) {
      SmallVector<Constant *> args;
      for (const tlc::GPUBinding &b : k.args)
        args.push_back(ConstantStruct::get(
            argType, {ConstantInt::get(i32, b.kind), ConstantInt::get(i32, b.index),
                      ConstantInt::get(i64, b.offset), ConstantInt::get(i64, b.size)}));
      kernels.push_back(ConstantStruct::get(
          kernelType, {string(prefix + "name." + k.name, k.name), dims(k.grid), dims(k.block),
                       ConstantInt::get(i32, 0), ConstantInt::get(i32, k.args.size()),
                       array(prefix + "args." + k.name, argType, args)}));
    }
    SmallVector<Constant *> constants;
    for (auto [i, value] : llvm::enumerate(program.constants)) {
      std::vector<char> bytes = denseBytes(value);
      Constant *data = ConstantDataArray::getRaw(StringRef(bytes.data(), bytes.size()),
                                                 bytes.size(), Type::getInt8Ty(ctx));
      constants.push_back(ConstantStruct::get(
          constantType, {global(prefix + "constant." + std::to_string(i), data, 64),
                         ConstantInt::get(i64, bytes.size())}));
    }
    Constant *fields[] = {
        ConstantInt::get(i32, TLC_GPU_ABI_VERSION),
        ConstantInt::get(i32, program.backend),
        string(prefix + "model_name", program.name),
        codeGlobal,
        ConstantInt::get(i64, program.code.size()), // without the NUL
        string(prefix + "target", program.target),
        ConstantInt::get(i32, kernels.size()),
        array(prefix + "kernels", kernelType, kernels),
        ConstantInt::get(i32, program.inputSizes.size()),
        sizes(prefix + "input_sizes", program.inputSizes),
        ConstantInt::get(i32, program.outputSizes.size()),
        sizes(prefix + "output_sizes", program.outputSizes),
        ConstantInt::get(i64, program.workspaceSize),
        ConstantInt::get(i32, constants.size()),
        array(prefix + "constants", constantType, constants),
    };
    auto *result = new GlobalVariable(module, programType, /*isConstant=*/true,
                                      GlobalValue::ExternalLinkage,
                                      ConstantStruct::get(programType, fields),
                                      prefix + "program");
    result->setAlignment(Align(8));
    return result;
  }

private:
  GlobalVariable *global(const Twine &name, Constant *init, unsigned align) {
    auto *g = new GlobalVariable(module, init->getType(), /*isConstant=*/true,
                                 GlobalValue::PrivateLinkage, init, name);
    g->setAlignment(Align(align));
    return g;
  }
  Constant *string(const Twine &name, StringRef text) {
    return global(name, ConstantDataArray::getString(ctx, text), 1);
  }
  Constant *array(const Twine &name, Type *element, ArrayRef<Constant *> items) {
    if (items.empty())
      return ConstantPointerNull::get(ptr);
    return global(name, ConstantArray::get(ArrayType::get(element, items.size()), items), 8);
  }
  Constant *sizes(const Twine &name, ArrayRef<uint64_t> values) {
    if (values.empty())
      return ConstantPointerNull::get(ptr);
    return global(name, ConstantDataArray::get(ctx, values), 8);
  }
  Constant *dims(const std::array<uint32_t, 3> &d) {
    return ConstantDataArray::get(ctx, ArrayRef<uint32_t>(d.data(), 3));
  }
  /// The constant's bytes in row-major order (splats expanded; booleans one byte each).
  static std::vector<char> denseBytes(mlir::DenseElementsAttr value) {
    auto type = value.getType();
    int64_t n = type.getNumElements();
    unsigned width = type.getElementTypeBitWidth();
    if (width == 1) {
      std::vector<char> bytes;
      for (bool b : value.getValues<bool>())
        bytes.push_back(b ? 1 : 0);
      return bytes;
    }
    ArrayRef<char> raw = value.getRawData();
    if (!value.isSplat())
      return std::vector<char>(raw.begin(), raw.end());
    size_t elem = width / 8;
    std::vector<char> bytes(n * elem);
    for (int64_t i = 0; i < n; ++i)
      std::copy(raw.begin(), raw.begin() + elem, bytes.begin() + i * elem);
    return bytes;
  }

  Module &module;
  const tlc::GPUProgram &program;
  LLVMContext &ctx;
  Type *i32, *i64;
  PointerType *ptr;
  StructType *argType, *kernelType, *constantType, *programType;
};

/// NAME_init(ctx, out_model), NAME_run(model, inputs..., outputs..., workspace),
/// NAME_release(model): thin calls of the runtime with NAME_program.
void buildWrappers(Module &module, const tlc::GPUProgram &program, GlobalVariable *table) {
  LLVMContext &ctx = module.getContext();
  Type *i32 = Type::getInt32Ty(ctx);
  PointerType *ptr = PointerType::getUnqual(ctx);
  auto define = [&](StringRef name, Type *result, ArrayRef<Type *> params) {
    return Function::Create(FunctionType::get(result, params, false),
                            GlobalValue::ExternalLinkage, program.name + "_" + name, module);
  };
  auto runtime = [&](StringRef name, Type *result, ArrayRef<Type *> params) {
    return module.getOrInsertFunction(name, FunctionType::get(result, params, false));
  };

  Function *init = define("init", i32, {ptr, ptr});
  IRBuilder<> b(BasicBlock::Create(ctx, "entry", init));
  b.CreateRet(b.CreateCall(runtime("tlc_gpu_model_load", i32, {ptr, ptr, ptr}),
                           {init->getArg(0), table, init->getArg(1)}));

  size_t numIn = program.inputSizes.size(), numOut = program.outputSizes.size();
  SmallVector<Type *> params(1 + numIn + numOut + 1, ptr);
  Function *run = define("run", i32, params);
  b.SetInsertPoint(BasicBlock::Create(ctx, "entry", run));
  auto pack = [&](size_t first, size_t count) -> Value * {
    if (count == 0)
      return ConstantPointerNull::get(ptr);
    auto *arrayType = ArrayType::get(ptr, count);
    Value *array = b.CreateAlloca(arrayType);
    for (size_t i = 0; i < count; ++i)
      b.CreateStore(run->getArg(first + i), b.CreateConstGEP2_32(arrayType, array, 0, i));
    return array;
  };
  Value *inputs = pack(1, numIn), *outputs = pack(1 + numIn, numOut);
  b.CreateRet(b.CreateCall(runtime("tlc_gpu_model_run", i32, {ptr, ptr, ptr, ptr}),
                           {run->getArg(0), inputs, outputs, run->getArg(1 + numIn + numOut)}));

  Function *release = define("release", Type::getVoidTy(ctx), {ptr});
  b.SetInsertPoint(BasicBlock::Create(ctx, "entry", release));
  b.CreateCall(runtime("tlc_gpu_model_release", Type::getVoidTy(ctx), {ptr}),
               {release->getArg(0)});
  b.CreateRetVoid();
}

} // namespace

mlir::LogicalResult tlc::writeHostObject(const GPUProgram &program, OutputKind kind,
                                         raw_pwrite_stream &os, mlir::Location loc) {
  LLVMContext ctx;
  Module module(program.name, ctx);
  Triple triple(sys::getProcessTriple());
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  std::string error;
  const llvm::Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return mlir::emitError(loc) << "no host target for the GPU model's host object: " << error;
  std::unique_ptr<TargetMachine> tm(target->createTargetMachine(
      triple, "generic", "", {}, Reloc::PIC_, std::nullopt, CodeGenOptLevel::Default));
  module.setTargetTriple(triple);
  module.setDataLayout(tm->createDataLayout());
  GlobalVariable *table = ProgramBuilder(module, program).build();
  auto exportBytes = [&](StringRef suffix, StringRef bytes, bool addNull, unsigned align) {
    Constant *init = ConstantDataArray::getString(ctx, bytes, addNull);
    auto *g = new GlobalVariable(module, init->getType(), /*isConstant=*/true,
                                 GlobalValue::ExternalLinkage, init, program.name + suffix);
    g->setAlignment(Align(align));
  };
  if (!program.info.empty())
    exportBytes("_info", program.info, /*addNull=*/true, 1);
  if (!program.manifest.empty())
    exportBytes("_manifest", program.manifest, /*addNull=*/false, tlc::kManifestAlignment);
  buildWrappers(module, program, table);
  if (verifyModule(module, &errs()))
    return mlir::emitError(loc) << "internal error: invalid host module for the GPU model";
  if (kind == OutputKind::LLVMIR) {
    module.print(os, nullptr);
    return mlir::success();
  }
  legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr,
                              kind == OutputKind::Assembly ? CodeGenFileType::AssemblyFile
                                                           : CodeGenFileType::ObjectFile))
    return mlir::emitError(loc) << "the host target cannot emit this file type";
  pm.run(module);
  return mlir::success();
}
