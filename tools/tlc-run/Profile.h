// tlc-run --profile: the per-kernel table of a model compiled with `tlc --profile`.
#ifndef TLC_TOOLS_TLC_RUN_PROFILE_H
#define TLC_TOOLS_TLC_RUN_PROFILE_H

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tlc {

/// The NAME_profile_* symbols of a profiled model.
struct ProfileTable {
  int64_t count = 0;
  int64_t *ns = nullptr; // per kernel, accumulated over runs
  const int64_t *flops = nullptr, *bytes = nullptr;
  const char *names = nullptr; // per kernel: source, NUL, kind, NUL
};

/// Finds model `name`'s table in the dlopen'ed `lib`; false with `error` when the model was not
/// compiled with --profile.
bool findProfile(void *lib, const std::string &name, ProfileTable &table, std::string &error);

/// Zeroes the accumulated times (after warm-up runs).
void resetProfile(const ProfileTable &table);

/// One kernel of a profile: its time summed over the timed runs, its FLOPs and bytes per run
/// (0 where not known), its kind and its source.
struct KernelTime {
  double ms = 0;
  int64_t flops = 0, bytes = 0;
  std::string kind, source;
};

/// The kernels of a CPU model's table.
std::vector<KernelTime> readProfile(const ProfileTable &table);

/// Prints the kernels, slowest first: time per run, share of the kernels' total, GFLOP/s and
/// GB/s, kind, source; and the kernels' total against `measuredMs` (the mean run time).
void printProfile(std::vector<KernelTime> kernels, unsigned runs, double measuredMs,
                  llvm::raw_ostream &os);

} // namespace tlc

#endif // TLC_TOOLS_TLC_RUN_PROFILE_H
