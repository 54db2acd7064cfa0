// tlc-run: loads a model compiled with `tlc --shared`, verifies and reads its embedded manifest
// (NAME_manifest), feeds inputs (.npy, ONNX TensorProto .pb, or seeded random data), compares the
// outputs with expected ones, and times the run (warm-up, then the median of N runs).
#include "FindModel.h"
#include "GPURun.h"
#include "Manifest.h"
#include "Profile.h"
#include "TensorIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <dlfcn.h>
#include <numeric>
#include <utility>
#include <vector>

using namespace llvm;
using namespace tlcrun;
using namespace tlc;

namespace {
cl::OptionCategory category("tlc-run options");
cl::opt<std::string> libraryPath(cl::Positional, cl::desc("<model.so>"), cl::Required,
                                 cl::cat(category));
cl::opt<std::string> modelName("name",
                               cl::desc("Model name (default: the library's only model)"),
                               cl::cat(category));
cl::list<std::string> inputs("input", cl::desc("Input tensor file (.npy or .pb), in order"),
                             cl::cat(category));
cl::list<std::string> expects("expect",
                              cl::desc("Expected output file (.npy or .pb), in order"),
                              cl::cat(category));
cl::opt<uint64_t> seed("seed", cl::desc("Seed for inputs not given with --input"),
                       cl::init(0), cl::cat(category));
cl::opt<double> rtol("rtol", cl::desc("Relative tolerance per element"), cl::init(1e-4),
                     cl::cat(category));
cl::opt<double> absTol("atol", cl::desc("Absolute tolerance per element"), cl::init(1e-5),
                     cl::cat(category));
cl::opt<double> maxRel("max-rel",
                       cl::desc("Instead of per-element tolerances, require max|out-exp| / "
                                "max|exp| <= this"),
                       cl::init(-1), cl::cat(category));
cl::opt<unsigned> repeat("repeat", cl::desc("Timed runs (median reported)"), cl::init(1),
                         cl::cat(category));
cl::opt<unsigned> warmup("warmup", cl::desc("Untimed runs first"), cl::init(0),
                         cl::cat(category));
cl::opt<std::string> saveDir("save-outputs", cl::desc("Write outputs as .npy into <dir>"),
                             cl::cat(category));
cl::opt<bool> quiet("quiet", cl::desc("Print only failures and the verdict"), cl::cat(category));
cl::opt<bool> profile("profile",
                      cl::desc("Print the time of each kernel over the timed runs (a CPU "
                               "model compiled with tlc --profile; any GPU model: device "
                               "timestamps after each kernel)"),
                      cl::cat(category));
cl::opt<bool> describe("describe",
                       cl::desc("Print the model's manifest (signature, target, options, memory "
                                "plan; GPU: kernels) and exit without running it"),
                       cl::cat(category));
cl::opt<std::string> cpuVariant("cpu-variant",
                                cl::desc("Run this variant of a model compiled for several cpus "
                                         "(sets TLC_CPU_VARIANT)"),
                                cl::value_desc("cpu"), cl::cat(category));

int fail(const std::string &message) {
  errs() << "tlc-run: error: " << message << "\n";
  return 2;
}

/// Calls NAME_run(ptr_0, ..., ptr_{N-1}) for the N pointers in `args`.
template <size_t... I> int callWith(void *fn, void **args, std::index_sequence<I...>) {
  using F = int (*)(decltype((void)I, (void *)nullptr)...);
  return reinterpret_cast<F>(fn)(args[I]...);
}

/// The arities tlc-run calls with. Every argument of NAME_run is a pointer, and on the ABIs
/// tlc targets (x86-64 System V, AArch64 AAPCS64: the caller owns the argument area and
/// cleans it up) a call passing more pointers than the function takes is that function's own
/// call: the callee never reads the extra ones. So a model's pointers go in the smallest of
/// these, padded with nulls (a training step of resnet18 has ~200).
constexpr size_t kArities[] = {8, 32, 128, 512};
constexpr size_t kMaxArgs = 512;

/// Calls `fn` with `args`, padded with nulls to the smallest of kArities first.
int callPadded(void *fn, std::vector<void *> &args) {
  args.resize(*std::find_if(std::begin(kArities), std::end(kArities),
                            [&](size_t a) { return a >= args.size(); }),
              nullptr);
  switch (args.size()) {
  case 8:
    return callWith(fn, args.data(), std::make_index_sequence<8>());
  case 32:
    return callWith(fn, args.data(), std::make_index_sequence<32>());
  case 128:
    return callWith(fn, args.data(), std::make_index_sequence<128>());
  default:
    return callWith(fn, args.data(), std::make_index_sequence<512>());
  }
}

/// Bytes after each output and after the workspace that a model must leave as they were
/// (one AVX-512 vector: what a vector store running past a buffer's end reaches).
constexpr size_t kGuardBytes = 64;
constexpr uint8_t kGuardByte = 0xA5;

/// How many of the kGuardBytes at `end` no longer hold kGuardByte.
size_t changedGuardBytes(const uint8_t *end) {
  return std::count_if(end, end + kGuardBytes, [](uint8_t b) { return b != kGuardByte; });
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "tlc-run: run a model compiled with tlc --shared\n\n"
                              "  tlc-run model.so [--input x.npy|x.pb ...] [--expect y.npy ...]"
                              " [--repeat N --warmup W]\n");
  std::string path = libraryPath;
  if (path.find('/') == std::string::npos)
    path = "./" + path;
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return fail(std::string("cannot load '") + libraryPath + "': " + dlerror());
  std::vector<ModelSymbols> models;
  std::string error;
  if (!findModels(path, lib, models, error))
    return fail(error);
  // Nothing of a manifest is read before the verifier has checked all of it.
  auto loadManifest = [&](const ModelSymbols &symbols, Manifest &m) {
    if (readManifest(symbols.manifest, symbols.manifestSize, m, error))
      return true;
    error = "model '" + symbols.name + "' in '" + libraryPath.getValue() + "': its manifest (" +
            symbols.name + "_manifest, " + std::to_string(symbols.manifestSize) + " bytes) " +
            error + "; the library is damaged or was not written by this tlc";
    return false;
  };
  const ModelSymbols *model = nullptr;
  if (modelName.empty()) {
    std::vector<std::string> names;
    for (const ModelSymbols &candidate : models)
      if (candidate.identified) {
        names.push_back(candidate.name);
        model = &candidate;
      }
    if (names.empty())
      return fail("'" + libraryPath.getValue() +
                  "' holds no tlc model (no NAME_manifest with a NAME_run)");
    if (names.size() > 1 && describe) {
      // --describe without --name describes every model (a training step's library: the
      // inference NAME and the step NAME_train).
      for (const ModelSymbols &candidate : models) {
        if (!candidate.identified)
          continue;
        Manifest m;
        if (!loadManifest(candidate, m))
          return fail(error);
        printManifest(m, outs());
      }
      return 0;
    }
    if (names.size() > 1)
      return fail("'" + libraryPath.getValue() + "' holds " + std::to_string(names.size()) +
                  " models (" + join(names, ", ") + "); pass --name");
  } else {
    for (const ModelSymbols &candidate : models)
      if (candidate.name == modelName)
        model = &candidate;
    if (!model)
      return fail("'" + libraryPath.getValue() + "' has no model '" + modelName + "' (no " +
                  modelName + "_manifest / " + modelName + "_run symbols; pass --name)");
  }
  std::string name = model->name;
  void *run = dlsym(lib, (name + "_run").c_str());
  Manifest m;
  if (!loadManifest(*model, m))
    return fail(error);
  if (describe) {
    printManifest(m, outs());
    return 0;
  }

  if (!quiet)
    printSignature(m, outs());
  if (!cpuVariant.empty()) {
    if (std::find(m.cpus.begin(), m.cpus.end(), cpuVariant.getValue()) == m.cpus.end()) {
      std::string has;
      for (const std::string &cpu : m.cpus)
        has += " " + cpu;
      return fail("--cpu-variant=" + cpuVariant + ": the model has no such variant (" +
                  (m.cpus.empty() ? std::string("it was compiled for one cpu") : "it has:" + has) +
                  ")");
    }
    // Read by the model's dispatcher on its first call (libtlcrt's tlc_cpu_select_variant).
    setenv("TLC_CPU_VARIANT", cpuVariant.c_str(), 1);
  }
  if (inputs.size() > m.inputs.size())
    return fail("got " + std::to_string(inputs.size()) + " inputs, the model takes " +
                std::to_string(m.inputs.size()));
  if (expects.size() > m.outputs.size())
    return fail("got " + std::to_string(expects.size()) + " expected outputs, the model has " +
                std::to_string(m.outputs.size()));
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    Tensor &t = m.inputs[i];
    if (i >= inputs.size()) {
      fillRandom(t, seed + i);
      continue;
    }
    Tensor file;
    if (!loadTensor(inputs[i], file, error))
      return fail(error);
    asModelType(file, t.dtype);
    if (file.dtype != t.dtype || file.shape != t.shape)
      return fail("input " + std::to_string(i) + " ('" + t.name + "') is " +
                  dtypeName(file.dtype) + "[" + file.shapeString() + "] in '" + inputs[i] +
                  "', the model expects " + dtypeName(t.dtype) + "[" + t.shapeString() + "]");
    t.data = std::move(file.data);
  }
  for (Tensor &t : m.outputs)
    t.data.assign(std::max<int64_t>(1, t.numel()) * dtypeSize(t.dtype), 0);
  std::vector<double> times;
  void *workspace = nullptr;
  if (isGPUModel(lib, name)) {
    GPURunTimes gpu;
    std::string gpuError = runOnGPU(lib, name, m.inputs, m.outputs, m.workspace, warmup,
                                    repeat, profile, gpu);
    if (!gpuError.empty())
      return fail(gpuError);
    // Device time (GPU timestamps) where the device has it, else wall time per run.
    times = gpu.deviceMs.empty() ? gpu.wallMs : gpu.deviceMs;
    if (!quiet)
      outs() << "device " << gpu.device << " ("
             << (gpu.deviceMs.empty() ? "host wall time" : "device time") << ")\n";
    if (profile)
      printProfile(gpu.kernels, times.size(),
                   std::accumulate(times.begin(), times.end(), 0.0) / times.size(), outs());
  } else {
    // Each output and the workspace are followed by guard bytes, checked after the runs: a
    // model writing past a buffer it was given is a code generation bug, whatever the values.
    if (posix_memalign(&workspace, 64, m.workspace + kGuardBytes) != 0)
      return fail("cannot allocate the " + std::to_string(m.workspace) + "-byte workspace");
    auto *workspaceEnd = static_cast<uint8_t *>(workspace) + m.workspace;
    std::fill_n(workspaceEnd, kGuardBytes, kGuardByte);
    for (Tensor &t : m.outputs)
      t.data.resize(t.data.size() + kGuardBytes, kGuardByte);

    std::vector<void *> args;
    for (Tensor &t : m.inputs)
      args.push_back(t.data.data());
    for (Tensor &t : m.outputs)
      args.push_back(t.data.data());
    args.push_back(workspace);
    if (args.size() > kMaxArgs)
      return fail("models with more than " + std::to_string(kMaxArgs - 1) +
                  " inputs and outputs are not supported");
    auto once = [&] { return callPadded(run, args); };
    ProfileTable table;
    if (profile && !findProfile(lib, name, table, error))
      return fail(error);
    for (unsigned i = 0; i < warmup; ++i)
      once();
    if (profile)
      resetProfile(table);
    for (unsigned i = 0; i < std::max(1u, repeat.getValue()); ++i) {
      auto start = std::chrono::steady_clock::now();
      int status = once();
      times.push_back(std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count());
      if (status == 4 && !m.cpus.empty()) // TLC_STATUS_UNSUPPORTED
        return fail(name + "_run returned status 4 (unsupported): no cpu variant of the model "
                           "runs on this host (TLC_CPU_VERBOSE=1 lists what each one lacks)");
      if (status != 0)
        return fail(name + "_run returned status " + std::to_string(status));
    }
    for (Tensor &t : m.outputs) {
      size_t changed = changedGuardBytes(t.data.data() + t.data.size() - kGuardBytes);
      t.data.resize(t.data.size() - kGuardBytes);
      if (changed)
        return fail(name + "_run wrote past the end of output '" + t.name + "' (" +
                    std::to_string(changed) + " of the " + std::to_string(kGuardBytes) +
                    " bytes after it changed): a tlc code generation bug");
    }
    if (size_t changed = changedGuardBytes(workspaceEnd))
      return fail(name + "_run wrote past the end of its " + std::to_string(m.workspace) +
                  "-byte workspace (" + std::to_string(changed) + " of the " +
                  std::to_string(kGuardBytes) + " bytes after it changed): a tlc code "
                  "generation bug");
    if (profile)
      printProfile(readProfile(table), times.size(),
                   std::accumulate(times.begin(), times.end(), 0.0) / times.size(), outs());
  }
  std::sort(times.begin(), times.end());
  if (!quiet)
    outs() << format("time: median %.3f ms, min %.3f ms over %zu runs (%u warm-up)\n",
                     times[times.size() / 2], times.front(), times.size(), warmup.getValue());

  if (!saveDir.empty())
    for (const Tensor &t : m.outputs)
      if (!saveNpy(saveDir + "/" + t.name + ".npy", t, error))
        return fail(error);

  bool ok = true;
  for (size_t i = 0; i < expects.size(); ++i) {
    const Tensor &out = m.outputs[i];
    Tensor exp;
    if (!loadTensor(expects[i], exp, error))
      return fail(error);
    asModelType(exp, out.dtype);
    if (exp.shape != out.shape)
      return fail("expected output " + std::to_string(i) + " ('" + out.name + "') has shape [" +
                  exp.shapeString() + "], the model produces [" + out.shapeString() + "]");
    double maxAbs = 0, maxMag = 0;
    int64_t bad = 0, firstBad = -1;
    for (int64_t k = 0; k < out.numel(); ++k) {
      double a = out.at(k), e = exp.at(k);
      bool bothNaN = std::isnan(a) && std::isnan(e);
      bool sameInf = std::isinf(a) && std::isinf(e) && (a > 0) == (e > 0);
      double err = bothNaN || sameInf ? 0 : std::fabs(a - e);
      if (std::isnan(err))
        err = INFINITY;
      maxAbs = std::max(maxAbs, err);
      if (std::isfinite(e))
        maxMag = std::max(maxMag, std::fabs(e));
      // err == 0 first: an exact match passes even where rtol * |e| is NaN (0 * inf).
      if (!(err == 0 || err <= absTol + rtol * std::fabs(e))) {
        if (firstBad < 0)
          firstBad = k;
        ++bad;
      }
    }
    double rel = maxMag > 0 ? maxAbs / maxMag : maxAbs;
    bool pass = maxRel >= 0 ? rel <= maxRel : bad == 0;
    ok &= pass;
    if (!quiet || !pass) {
      outs() << format("output %s: max abs error %.3g, max |expected| %.3g, relative %.3g",
                       out.name.c_str(), maxAbs, maxMag, rel);
      if (bad)
        outs() << format(", %lld of %lld outside atol %.1g + rtol %.1g (first at %lld: got "
                         "%.8g, expected %.8g)",
                         (long long)bad, (long long)out.numel(), absTol.getValue(),
                         rtol.getValue(), (long long)firstBad, out.at(firstBad),
                         exp.at(firstBad));
      outs() << (pass ? " -> ok\n" : " -> MISMATCH\n");
    }
  }
  free(workspace);
  if (!expects.empty())
    outs() << (ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
