// tlc-run's GPU path: runs a model compiled for a GPU target through the runtime in its library.
#ifndef TLC_TOOLS_TLCRUN_GPURUN_H
#define TLC_TOOLS_TLCRUN_GPURUN_H

#include "TensorIO.h"

#include <string>
#include <vector>

namespace tlcrun {

struct GPURunTimes {
  std::string device;           // the device's name
  std::vector<double> deviceMs; // GPU timestamps per timed run (empty if the device cannot time)
  std::vector<double> wallMs;   // host wall time per timed run, submission to completion
};

/// Whether `lib` holds a GPU model named `name` (its NAME_program).
bool isGPUModel(void *lib, const std::string &name);

/// Opens the program's device, loads the model, uploads `inputs`, runs `warmup` + `repeat`
/// times and downloads `outputs` (shapes and dtypes set, data sized). Returns "" or the error.
std::string runOnGPU(void *lib, const std::string &name, const std::vector<Tensor> &inputs,
                     std::vector<Tensor> &outputs, uint64_t workspace, unsigned warmup,
                     unsigned repeat, GPURunTimes &times);

} // namespace tlcrun

#endif // TLC_TOOLS_TLCRUN_GPURUN_H
