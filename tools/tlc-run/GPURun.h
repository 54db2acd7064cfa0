// tlc-run's GPU path: runs a model compiled for a GPU target through the runtime in its library.
#ifndef TLC_TOOLS_TLCRUN_GPURUN_H
#define TLC_TOOLS_TLCRUN_GPURUN_H

#include "TensorIO.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tlcrun {

/// One kernel of a profiled run: its entry point and launch shape, and its device time summed
/// over the timed runs.
struct GPUKernelTime {
  std::string name;
  unsigned grid[3], block[3];
  double ms = 0;
};

struct GPURunTimes {
  std::string device;           // the device's name
  std::vector<double> deviceMs; // GPU timestamps per timed run (empty if the device cannot time)
  std::vector<double> wallMs;   // host wall time per timed run, submission to completion
  std::vector<GPUKernelTime> kernels; // with `profile`: per kernel, in launch order
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

/// Prints the kernels of a profiled run, slowest first: time per run, share of the kernels'
/// total, grid and block; then the kernels' total against `measuredMs` (the median run).
void printGPUProfile(const GPURunTimes &times, double measuredMs, llvm::raw_ostream &os);

} // namespace tlcrun

#endif // TLC_TOOLS_TLCRUN_GPURUN_H
