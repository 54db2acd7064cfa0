// libFuzzer harness: tlc-run's model descriptor parser (NAME_info) on arbitrary text.
#include "ModelDescriptor.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // The descriptor is a NUL-terminated C string in the library.
  std::string text(reinterpret_cast<const char *>(data), size);
  tlcrun::Manifest manifest;
  std::string error;
  (void)tlcrun::parseManifest(text.c_str(), manifest, error);
  return 0;
}
