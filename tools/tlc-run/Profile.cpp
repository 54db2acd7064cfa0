// tlc-run --profile: the per-kernel table of a model compiled with `tlc --profile`.
#include "Profile.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstring>
#include <dlfcn.h>
#include <numeric>
#include <vector>

using namespace llvm;

bool tlc::findProfile(void *lib, const std::string &name, ProfileTable &table,
                      std::string &error) {
  auto symbol = [&](const char *suffix) { return dlsym(lib, (name + suffix).c_str()); };
  auto *count = static_cast<const int64_t *>(symbol("_profile_count"));
  table.ns = static_cast<int64_t *>(symbol("_profile_ns"));
  table.flops = static_cast<const int64_t *>(symbol("_profile_flops"));
  table.bytes = static_cast<const int64_t *>(symbol("_profile_bytes"));
  table.names = static_cast<const char *>(symbol("_profile_names"));
  if (!count || !table.ns || !table.flops || !table.bytes || !table.names) {
    error = "--profile: model '" + name + "' has no kernel table (compile it with tlc --profile)";
    return false;
  }
  table.count = *count;
  return true;
}

void tlc::resetProfile(const ProfileTable &table) {
  std::fill(table.ns, table.ns + table.count, 0);
}

std::vector<tlc::KernelTime> tlc::readProfile(const ProfileTable &table) {
  std::vector<KernelTime> kernels;
  const char *text = table.names;
  for (int64_t k = 0; k < table.count; ++k) {
    const char *source = text;
    const char *kind = source + std::strlen(source) + 1;
    text = kind + std::strlen(kind) + 1;
    kernels.push_back({table.ns[k] / 1e6, table.flops[k], table.bytes[k], kind, source});
  }
  return kernels;
}

void tlc::printProfile(std::vector<KernelTime> kernels, unsigned runs, double measuredMs,
                       raw_ostream &os) {
  for (KernelTime &k : kernels)
    k.ms /= std::max(1u, runs);
  double total = std::accumulate(kernels.begin(), kernels.end(), 0.0,
                                 [](double sum, const KernelTime &k) { return sum + k.ms; });
  std::stable_sort(kernels.begin(), kernels.end(),
                   [](const KernelTime &a, const KernelTime &b) { return a.ms > b.ms; });
  os << format("profile: %zu kernels, %u runs; per run the kernels took %.3f ms of %.3f ms "
               "measured (%.0f%%)\n",
               kernels.size(), runs, total, measuredMs,
               measuredMs > 0 ? 100 * total / measuredMs : 0.0);
  os << format("%10s %7s %9s %8s  %-20s %s\n", "ms/run", "share", "Gop/s", "GB/s", "kind",
               "source");
  for (const KernelTime &k : kernels) {
    std::string gflops = k.flops && k.ms > 0 ? formatv("{0:F1}", k.flops / k.ms / 1e6).str() : "-";
    std::string gbs = k.bytes && k.ms > 0 ? formatv("{0:F1}", k.bytes / k.ms / 1e6).str() : "-";
    os << format("%10.4f %6.1f%% %9s %8s  %-20s %s\n", k.ms, total > 0 ? 100 * k.ms / total : 0.0,
                 gflops.c_str(), gbs.c_str(), k.kind.c_str(), k.source.c_str());
  }
}
