// Finds the models a shared library holds from its exported NAME_manifest symbols.
#ifndef TLC_TOOLS_TLC_RUN_FINDMODEL_H
#define TLC_TOOLS_TLC_RUN_FINDMODEL_H

#include <cstdint>
#include <string>
#include <vector>

namespace tlcrun {

struct ModelSymbols {
  std::string name;      // NAME
  const void *manifest;  // NAME_manifest where the loader bound it
  uint64_t manifestSize; // its size in the dynamic symbol table: the bytes tlc-run may read
  bool identified;       // the bytes start like a manifest (hasManifestIdentifier)
};

/// The models in the library at `path` (already dlopen'ed as `lib`): each defines a
/// NAME_manifest and a NAME_run. Sorted by name. False, with `error` set, when the file's
/// dynamic symbol table cannot be read.
bool findModels(const std::string &path, void *lib, std::vector<ModelSymbols> &models,
                std::string &error);

} // namespace tlcrun

#endif // TLC_TOOLS_TLC_RUN_FINDMODEL_H
