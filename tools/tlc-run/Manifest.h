// The model manifest NAME_manifest (docs/generated-abi.md) as tlc-run reads it: verified with
// the FlatBuffers verifier first, then read and printed.
#ifndef TLC_TOOLS_TLCRUN_MANIFEST_H
#define TLC_TOOLS_TLCRUN_MANIFEST_H

#include "TensorIO.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tlc::manifest {
struct Model;
} // namespace tlc::manifest

namespace tlcrun {

struct Manifest {
  std::string name;
  uint64_t workspace = 0;
  std::vector<Tensor> inputs, outputs;
  std::vector<std::string> cpus; // the variants of a multi-cpu object, in dispatch order
  const tlc::manifest::Model *model = nullptr; // the verified FlatBuffer (printManifest)
};

/// Whether the `size` bytes at `data` start like a manifest (size prefix, root offset, the
/// identifier "TLCM"); reads nothing else.
bool hasManifestIdentifier(const void *data, size_t size);

/// Reads the manifest in the `size` bytes at `data` (16-byte aligned, as in the object), which
/// come from a library the user names: the FlatBuffers verifier checks every offset and length
/// first (the size prefix must match `size`), then every field tlc-run uses is checked (dtypes,
/// dimensions, element counts). False with `error` set; `m.model` points into `data`.
bool readManifest(const void *data, size_t size, Manifest &m, std::string &error);

/// The model's signature, workspace and cpu variants, as tlc-run prints before a run.
void printSignature(const Manifest &m, llvm::raw_ostream &os);

/// Everything in the manifest: the signature, target, compile options, memory plan, training
/// state and, for GPU programs, the kernel table.
void printManifest(const Manifest &m, llvm::raw_ostream &os);

} // namespace tlcrun

#endif // TLC_TOOLS_TLCRUN_MANIFEST_H
