// tlc-run's GPU path: runs a model compiled for a GPU target through the runtime in its library.
#include "GPURun.h"

#include "tlc/gpu.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <dlfcn.h>
#include <memory>

using namespace tlcrun;

namespace {

/// The runtime entry points, taken from the model library (tlc --shared links the whole
/// runtime into GPU models), so the context, model and buffers all belong to one runtime.
struct Runtime {
  decltype(&tlc_gpu_context_create) contextCreate;
  decltype(&tlc_gpu_context_destroy) contextDestroy;
  decltype(&tlc_gpu_last_error) lastError;
  decltype(&tlc_gpu_device_name) deviceName;
  decltype(&tlc_gpu_buffer_create) bufferCreate;
  decltype(&tlc_gpu_buffer_destroy) bufferDestroy;
  decltype(&tlc_gpu_buffer_upload) upload;
  decltype(&tlc_gpu_buffer_download) download;
  decltype(&tlc_gpu_synchronize) synchronize;
  decltype(&tlc_gpu_model_load) modelLoad;
  decltype(&tlc_gpu_model_release) modelRelease;
  decltype(&tlc_gpu_model_run) modelRun;
  decltype(&tlc_gpu_model_last_run_ms) lastRunMs;
  decltype(&tlc_gpu_model_set_profiling) setProfiling;
  decltype(&tlc_gpu_model_kernel_times) kernelTimes;
  decltype(&tlc_status_string) statusString;

  std::string load(void *lib) {
    std::string missing;
    auto get = [&](auto &fn, const char *symbol) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, symbol));
      if (!fn)
        missing += std::string(missing.empty() ? "" : ", ") + symbol;
    };
    get(contextCreate, "tlc_gpu_context_create");
    get(contextDestroy, "tlc_gpu_context_destroy");
    get(lastError, "tlc_gpu_last_error");
    get(deviceName, "tlc_gpu_device_name");
    get(bufferCreate, "tlc_gpu_buffer_create");
    get(bufferDestroy, "tlc_gpu_buffer_destroy");
    get(upload, "tlc_gpu_buffer_upload");
    get(download, "tlc_gpu_buffer_download");
    get(synchronize, "tlc_gpu_synchronize");
    get(modelLoad, "tlc_gpu_model_load");
    get(modelRelease, "tlc_gpu_model_release");
    get(modelRun, "tlc_gpu_model_run");
    get(lastRunMs, "tlc_gpu_model_last_run_ms");
    get(setProfiling, "tlc_gpu_model_set_profiling");
    get(kernelTimes, "tlc_gpu_model_kernel_times");
    get(statusString, "tlc_status_string");
    return missing.empty() ? ""
                           : "the library has no GPU runtime functions (" + missing +
                                 "); link it with tlc --shared";
  }
};

/// Owns the device objects of one run and releases them in order.
struct Session {
  const Runtime &rt;
  tlc_gpu_context *ctx = nullptr;
  tlc_gpu_model *model = nullptr;
  std::vector<tlc_gpu_buffer *> buffers;
  explicit Session(const Runtime &rt) : rt(rt) {}
  ~Session() {
    for (tlc_gpu_buffer *b : buffers)
      rt.bufferDestroy(ctx, b);
    rt.modelRelease(model);
    rt.contextDestroy(ctx);
  }
  std::string error(const std::string &what, tlc_status st) const {
    return what + ": " + rt.statusString(st) + " (" + rt.lastError(ctx) + ")";
  }
  tlc_gpu_buffer *buffer(size_t size, std::string &err) {
    tlc_gpu_buffer *b = nullptr;
    tlc_status st = rt.bufferCreate(ctx, size, &b);
    if (st != TLC_STATUS_OK) {
      err = error("cannot allocate a " + std::to_string(size) + "-byte device buffer", st);
      return nullptr;
    }
    buffers.push_back(b);
    return b;
  }
};

} // namespace

bool tlcrun::isGPUModel(void *lib, const std::string &name) {
  return dlsym(lib, (name + "_program").c_str()) != nullptr;
}

std::string tlcrun::runOnGPU(void *lib, const std::string &name,
                             const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs,
                             uint64_t workspace, unsigned warmup, unsigned repeat, bool profile,
                             GPURunTimes &times) {
  auto *program =
      static_cast<const tlc_gpu_program *>(dlsym(lib, (name + "_program").c_str()));
  Runtime rt;
  if (std::string missing = rt.load(lib); !missing.empty())
    return missing;
  Session s(rt);
  char message[2048];
  tlc_status st = rt.contextCreate(static_cast<tlc_gpu_backend>(program->backend), 0, &s.ctx,
                                   message, sizeof message);
  if (st != TLC_STATUS_OK)
    return std::string("no GPU to run on: ") + message;
  times.device = rt.deviceName(s.ctx);
  if ((st = rt.modelLoad(s.ctx, program, &s.model)) != TLC_STATUS_OK)
    return s.error("loading the model", st);
  std::string err;
  std::vector<tlc_gpu_buffer *> in, out;
  for (const Tensor &t : inputs) {
    tlc_gpu_buffer *b = s.buffer(t.data.size(), err);
    if (!b)
      return err;
    if ((st = rt.upload(s.ctx, b, 0, t.data.data(), t.data.size())) != TLC_STATUS_OK)
      return s.error("uploading input '" + t.name + "'", st);
    in.push_back(b);
  }
  for (const Tensor &t : outputs) {
    tlc_gpu_buffer *b = s.buffer(t.data.size(), err);
    if (!b)
      return err;
    out.push_back(b);
  }
  tlc_gpu_buffer *ws = nullptr;
  if (workspace > 0 && !(ws = s.buffer(workspace, err)))
    return err;
  std::vector<double> kernelMs(program->num_kernels);
  if (profile) {
    if ((st = rt.setProfiling(s.model, 1)) != TLC_STATUS_OK)
      return s.error("turning on per-kernel timing", st);
    for (uint32_t k = 0; k < program->num_kernels; ++k) {
      const tlc_gpu_kernel &kernel = program->kernels[k];
      std::string shape = llvm::formatv("{0}x{1}x{2} x {3}x{4}x{5}", kernel.grid[0],
                                        kernel.grid[1], kernel.grid[2], kernel.block[0],
                                        kernel.block[1], kernel.block[2]);
      times.kernels.push_back({0, 0, 0, shape, kernel.name});
    }
  }
  for (unsigned i = 0; i < warmup + std::max(1u, repeat); ++i) {
    auto start = std::chrono::steady_clock::now();
    if ((st = rt.modelRun(s.model, in.data(), out.data(), ws)) != TLC_STATUS_OK)
      return s.error(name + "_run", st);
    if ((st = rt.synchronize(s.ctx)) != TLC_STATUS_OK)
      return s.error("waiting for the run", st);
    double wall =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    if (i < warmup)
      continue;
    times.wallMs.push_back(wall);
    double device = rt.lastRunMs(s.model);
    if (device >= 0)
      times.deviceMs.push_back(device);
    if (!profile)
      continue;
    if ((st = rt.kernelTimes(s.model, kernelMs.data(), kernelMs.size())) != TLC_STATUS_OK)
      return s.error("--profile: reading the kernels' times", st);
    for (size_t k = 0; k < kernelMs.size(); ++k)
      times.kernels[k].ms += kernelMs[k];
  }
  for (size_t i = 0; i < outputs.size(); ++i)
    if ((st = rt.download(s.ctx, out[i], 0, outputs[i].data.data(), outputs[i].data.size())) !=
        TLC_STATUS_OK)
      return s.error("downloading output '" + outputs[i].name + "'", st);
  return "";
}

