// Finds the models a shared library holds from its exported NAME_info descriptors.
#include "FindModel.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <cstring>
#include <dlfcn.h>

using namespace llvm;

bool tlcrun::findModels(const std::string &path, void *lib, std::vector<std::string> &names,
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
  constexpr StringRef magic = "tlc-model-info ";
  for (const object::ELFSymbolRef &symbol : elf->getDynamicSymbolIterators()) {
    Expected<StringRef> symbolName = symbol.getName();
    if (!symbolName) {
      consumeError(symbolName.takeError());
      continue;
    }
    StringRef model = *symbolName;
    if (!model.consume_back("_info") || model.empty())
      continue;
    Expected<uint32_t> flags = symbol.getFlags();
    if (!flags) {
      consumeError(flags.takeError());
      continue;
    }
    if (*flags & object::SymbolRef::SF_Undefined)
      continue;
    // dlsym finds what the loader bound, so a descriptor is only read where it really lies.
    auto *info = static_cast<const char *>(dlsym(lib, symbolName->str().c_str()));
    if (!info || !dlsym(lib, (model + "_run").str().c_str()) ||
        std::memcmp(info, magic.data(), magic.size()) != 0)
      continue;
    names.push_back(model.str());
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return true;
}
