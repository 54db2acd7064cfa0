// Finds the models a shared library holds from its exported NAME_manifest symbols.
#include "FindModel.h"
#include "Manifest.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <dlfcn.h>

using namespace llvm;

bool tlcrun::findModels(const std::string &path, void *lib, std::vector<ModelSymbols> &models,
                        std::string &error) {
  Expected<object::OwningBinary<object::ObjectFile>> file =
      object::ObjectFile::createObjectFile(path);
  if (!file) {
    error = "cannot read the symbols of '" + path + "': " + toString(file.takeError());
    return false;
  }
  auto *elf = dyn_cast<object::ELFObjectFileBase>(file->getBinary());
  if (!elf) {
    error = "'" + path + "' is not an ELF shared library";
    return false;
  }
  for (const object::ELFSymbolRef &symbol : elf->getDynamicSymbolIterators()) {
    Expected<StringRef> symbolName = symbol.getName();
    if (!symbolName) {
      consumeError(symbolName.takeError());
      continue;
    }
    StringRef model = *symbolName;
    if (!model.consume_back("_manifest") || model.empty())
      continue;
    Expected<uint32_t> flags = symbol.getFlags();
    if (!flags) {
      consumeError(flags.takeError());
      continue;
    }
    if (*flags & object::SymbolRef::SF_Undefined)
      continue;
    // dlsym finds what the loader bound, so a manifest is only read where it really lies; its
    // extent is the symbol's, never a length read from the bytes themselves.
    const void *manifest = dlsym(lib, symbolName->str().c_str());
    if (!manifest || !dlsym(lib, (model + "_run").str().c_str()))
      continue;
    uint64_t size = symbol.getSize();
    models.push_back({model.str(), manifest, size, hasManifestIdentifier(manifest, size)});
  }
  llvm::sort(models, [](const ModelSymbols &a, const ModelSymbols &b) { return a.name < b.name; });
  models.erase(
      std::unique(models.begin(), models.end(),
                  [](const ModelSymbols &a, const ModelSymbols &b) { return a.name == b.name; }),
      models.end());
  return true;
}
