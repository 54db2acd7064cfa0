// Constant data as bytes, so the object writer copies it instead of printing each element.
#include "targets/cpu/ByteConstantData.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/SwapByteOrder.h"

#include <optional>

void tlc::emitConstantDataAsBytes(llvm::Module &module) {
  using namespace llvm;
  if (!module.getDataLayout().isLittleEndian() || !sys::IsLittleEndianHost)
    return;
  // Below this size the per-element cost does not matter.
  constexpr uint64_t kMinBytes = 256;
  constexpr unsigned kAlignment = 64;
  SmallVector<GlobalVariable *> work;
  for (GlobalVariable &global : module.globals()) {
    auto *data = global.isConstant() && global.hasInitializer()
                     ? dyn_cast<ConstantDataArray>(global.getInitializer())
                     : nullptr;
    if (data && data->getElementByteSize() > 1 && data->getRawDataValues().size() >= kMinBytes)
      work.push_back(&global);
  }
  for (GlobalVariable *old : work) {
    GlobalVariable &global = *old;
    auto *data = cast<ConstantDataArray>(global.getInitializer());
    Constant *bytes = ConstantDataArray::getRaw(
        data->getRawDataValues(), data->getRawDataValues().size(),
        Type::getInt8Ty(module.getContext()));
    // A new initializer of a different type: a global's value type is fixed, so make a new
    // global and move the name and uses over.
    auto *replacement = new GlobalVariable(module, bytes->getType(), /*isConstant=*/true,
                                           global.getLinkage(), bytes, "", &global,
                                           global.getThreadLocalMode(),
                                           global.getAddressSpace());
    replacement->copyAttributesFrom(&global);
    if (std::optional<CodeModel::Model> model = global.getCodeModel())
      replacement->setCodeModel(*model);
    replacement->setAlignment(
        std::max(global.getPointerAlignment(module.getDataLayout()), Align(kAlignment)));
    replacement->takeName(&global);
    global.replaceAllUsesWith(replacement);
    global.eraseFromParent();
  }
}

unsigned tlc::placeLargeConstantData(llvm::Module &module, uint64_t threshold) {
  using namespace llvm;
  constexpr uint64_t kMinLargeBytes = 64 << 10; // LLVM's medium-model threshold
  const DataLayout &layout = module.getDataLayout();
  auto bytesOf = [&](const GlobalVariable &g) {
    return g.hasInitializer() ? layout.getTypeAllocSize(g.getValueType()).getFixedValue() : 0;
  };
  uint64_t total = 0;
  for (const GlobalVariable &global : module.globals())
    if (global.isConstant())
      total += bytesOf(global);
  if (total <= threshold)
    return 0;
  unsigned marked = 0;
  for (GlobalVariable &global : module.globals())
    if (global.isConstant() && !global.isThreadLocal() && bytesOf(global) >= kMinLargeBytes) {
      global.setCodeModel(CodeModel::Large);
      ++marked;
    }
  return marked;
}
