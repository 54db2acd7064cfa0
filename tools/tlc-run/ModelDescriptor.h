// The model descriptor NAME_info (docs/generated-abi.md) as tlc-run reads it.
#ifndef TLC_TOOLS_TLCRUN_MODELDESCRIPTOR_H
#define TLC_TOOLS_TLCRUN_MODELDESCRIPTOR_H

#include "TensorIO.h"

#include <string>
#include <vector>

namespace tlcrun {

struct Manifest {
  std::string name;
  uint64_t workspace = 0;
  std::vector<Tensor> inputs, outputs;
  std::vector<std::string> cpus; // the variants of a multi-cpu object, in dispatch order
};

/// Parses the descriptor `text`. It comes from a library the user names, so every field is
/// checked (no exception, no allocation from an unchecked dim); false with `error` set.
bool parseManifest(const char *text, Manifest &m, std::string &error);

} // namespace tlcrun

#endif // TLC_TOOLS_TLCRUN_MODELDESCRIPTOR_H
