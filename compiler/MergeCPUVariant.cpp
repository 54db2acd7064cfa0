// Merges the code generated for one CPU into the module of a multi-CPU object.
#include "compiler/MergeCPUVariant.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tlc;

namespace {

void compileFor(LLVM::LLVMFuncOp fn, const CPUVariant &cpu) {
  MLIRContext *ctx = fn.getContext();
  fn.setTargetCpuAttr(StringAttr::get(ctx, cpu.llvmCPU));
  if (!cpu.llvmFeatures.empty())
    fn.setTargetFeaturesAttr(LLVM::TargetFeaturesAttr::get(ctx, cpu.llvmFeatures));
  if (!cpu.preferVectorWidth.empty())
    fn.setPreferVectorWidthAttr(StringAttr::get(ctx, cpu.preferVectorWidth));
}

void makeInternal(Operation *op) {
  if (auto fn = dyn_cast<LLVM::LLVMFuncOp>(op))
    fn.setLinkage(LLVM::Linkage::Internal);
  else if (auto global = dyn_cast<LLVM::GlobalOp>(op);
           global && global.getLinkage() != LLVM::Linkage::Private)
    global.setLinkage(LLVM::Linkage::Internal);
}

/// A constant global of `dest` that `op` duplicates (same name, type, value, flags).
bool duplicatesConstant(Operation *op, SymbolTable &destSymbols) {
  auto global = dyn_cast<LLVM::GlobalOp>(op);
  if (!global || !global.getConstant())
    return false;
  Operation *existing = destSymbols.lookup(global.getSymName());
  return existing &&
         OperationEquivalence::isEquivalentTo(op, existing, OperationEquivalence::IgnoreLocations);
}

} // namespace

LogicalResult tlc::mergeCPUVariant(ModuleOp dest, ModuleOp variant, const CPUVariant &cpu,
                                   llvm::ArrayRef<std::string> models) {
  MLIRContext *ctx = dest.getContext();
  llvm::StringSet<> runNames;
  for (const std::string &model : models) {
    if (Operation *info = variant.lookupSymbol(model + "_info"))
      info->erase();
    runNames.insert(model + "_run");
  }
  SymbolTable destSymbols(dest), variantSymbols(variant);
  for (Operation &op : llvm::make_early_inc_range(*variant.getBody())) {
    auto symbol = dyn_cast<SymbolOpInterface>(op);
    if (!symbol)
      continue;
    std::string name = symbol.getName().str();
    auto fn = dyn_cast<LLVM::LLVMFuncOp>(op);
    if (fn && fn.isExternal()) {
      auto existing = destSymbols.lookup<LLVM::LLVMFuncOp>(name);
      if (!existing)
        continue;
      if (existing.getFunctionType() != fn.getFunctionType())
        return fn.emitError() << "the cpu variants declare '" << name
                              << "' differently: " << fn.getFunctionType() << " vs "
                              << existing.getFunctionType();
      op.erase();
      continue;
    }
    if (!fn && !destSymbols.lookup(name))
      continue; // a first-seen global keeps its name
    if (duplicatesConstant(&op, destSymbols)) {
      op.erase(); // uses now resolve to dest's copy
      continue;
    }
    std::string renamed = name + "." + cpu.name;
    if (destSymbols.lookup(renamed) || variantSymbols.lookup(renamed))
      return op.emitError() << "cannot rename '" << name << "' for cpu variant '" << cpu.name
                            << "': '" << renamed << "' exists";
    if (failed(variantSymbols.rename(&op, renamed)))
      return op.emitError() << "cannot rename '" << name << "' to '" << renamed << "'";
    makeInternal(&op);
    if (!fn)
      continue;
    compileFor(fn, cpu);
    if (runNames.contains(name)) {
      SmallVector<Attribute> features;
      for (const std::string &f : cpu.runtimeFeatures)
        features.push_back(StringAttr::get(ctx, f));
      fn->setAttr(kCPUFeaturesAttr, ArrayAttr::get(ctx, features));
    }
  }
  for (Operation &op : *variant.getBody())
    if (auto global = dyn_cast<LLVM::GlobalOp>(op))
      makeInternal(global);
  dest.getBody()->getOperations().splice(dest.getBody()->end(), variant.getBody()->getOperations());
  return success();
}
