// Finds the models a shared library holds from its exported NAME_info descriptors.
#ifndef TLC_TOOLS_TLC_RUN_FINDMODEL_H
#define TLC_TOOLS_TLC_RUN_FINDMODEL_H

#include <string>
#include <vector>

namespace tlcrun {

/// The names NAME of the models in the library at `path` (already dlopen'ed as `lib`): each
/// exports NAME_run and a NAME_info that starts with "tlc-model-info ". Sorted. False, with
/// `error` set, when the file's dynamic symbol table cannot be read.
bool findModels(const std::string &path, void *lib, std::vector<std::string> &names,
                std::string &error);

} // namespace tlcrun

#endif // TLC_TOOLS_TLC_RUN_FINDMODEL_H
