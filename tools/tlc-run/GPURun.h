// tlc-run's GPU path: runs a model compiled for a GPU target through the runtime in its library.
#ifndef TLC_TOOLS_TLCRUN_GPURUN_H
#define TLC_TOOLS_TLCRUN_GPURUN_H

#include "Profile.h"
#include "TensorIO.h"

#include <string>
#include <vector>

namespace tlcrun {

struct GPURunTimes {
  std::string device;           // the device's name
  std::vector<double> deviceMs; // GPU timestamps per timed run (empty if the device cannot time)
  std::vector<double> wallMs;   // host wall time per timed run, submission to completion
  // With `profile`: per kernel in launch order, its device time summed over the timed runs,
  // its launch shape as the kind and its entry point as the source.
  std::vector<tlc::KernelTime> kernels;
};

/// Whether `lib` holds a GPU model named `name` (its NAME_program).
bool isGPUModel(void *lib, const std::string &name);

/// Opens the program's device, loads the model, uploads `inputs`, runs `warmup` + `repeat`
/// times and downloads `outputs` (shapes and dtypes set, data sized). With `profile`, each
/// timed run also times every kernel (GPU timestamps after each one) into `times.kernels`.
/// Returns "" or the error.
std::string runOnGPU(void *lib, const std::string &name, const std::vector<Tensor> &inputs,
                     std::vector<Tensor> &outputs, uint64_t workspace, unsigned warmup,
                     unsigned repeat, bool profile, GPURunTimes &times);

} // namespace tlcrun

#endif // TLC_TOOLS_TLCRUN_GPURUN_H
