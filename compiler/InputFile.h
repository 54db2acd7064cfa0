// Bounded reads of the files tlc is given (models, sources, tensor files).
#ifndef TLC_COMPILER_INPUTFILE_H
#define TLC_COMPILER_INPUTFILE_H

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>

namespace tlc {

/// The largest input file tlc reads (2 GiB less a byte: protobuf takes sizes as int).
constexpr uint64_t kMaxInputFileBytes = (uint64_t(1) << 31) - 1;

/// Reads `path` whole if it is a regular file of at most kMaxInputFileBytes; otherwise returns
/// null with `error` set to a message naming `displayPath` ("cannot open 'P': ...", "'P' is not
/// a regular file", ...). An endless device (/dev/zero), a pipe or a huge file is refused up
/// front instead of being read until memory runs out.
inline std::unique_ptr<llvm::MemoryBuffer> readInputFile(llvm::StringRef path,
                                                         llvm::StringRef displayPath,
                                                         std::string &error) {
  std::string quoted = ("'" + displayPath + "'").str();
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status)) {
    error = "cannot open " + quoted + ": " + ec.message();
    return nullptr;
  }
  if (!llvm::sys::fs::is_regular_file(status)) {
    error = quoted + " is not a regular file";
    return nullptr;
  }
  if (status.getSize() > kMaxInputFileBytes) {
    error = quoted + " is larger than 2 GiB (" + std::to_string(status.getSize()) + " bytes)";
    return nullptr;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file = llvm::MemoryBuffer::getFile(
      path, /*IsText=*/false, /*RequiresNullTerminator=*/true, /*IsVolatile=*/false);
  if (!file) {
    error = "cannot read " + quoted + ": " + file.getError().message();
    return nullptr;
  }
  return std::move(*file);
}

} // namespace tlc

#endif // TLC_COMPILER_INPUTFILE_H
