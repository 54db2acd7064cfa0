// libFuzzer harness: tlc-run's reader of a model's NAME_manifest (the FlatBuffers verifier, then
// the checks and the printing of --describe) on arbitrary bytes.
#include "Manifest.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // In a library the manifest is a 16-byte aligned symbol of exactly its size: so is the copy
  // (new[] aligns for any scalar), and ASan reports any read past it.
  std::unique_ptr<uint8_t[]> bytes(new uint8_t[size ? size : 1]);
  if (size)
    std::memcpy(bytes.get(), data, size);
  tlcrun::Manifest manifest;
  std::string error;
  (void)tlcrun::hasManifestIdentifier(bytes.get(), size);
  if (tlcrun::readManifest(bytes.get(), size, manifest, error)) {
    std::string text;
    llvm::raw_string_ostream os(text);
    tlcrun::printManifest(manifest, os);
  }
  return 0;
}
