// ld.lld -r, run as a program, and the joined object's symbols made local (RelocatableLink.h).
#include "targets/cpu/RelocatableLink.h"

#include "targets/cpu/ElfLocalize.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;

namespace {

/// Removes a directory and the files in it when it goes out of scope.
struct TemporaryDirectory {
  SmallString<128> path;
  std::vector<std::string> files;
  ~TemporaryDirectory() {
    for (const std::string &file : files)
      sys::fs::remove(file);
    if (!path.empty())
      sys::fs::remove(path);
  }
  std::string file(StringRef name) {
    SmallString<128> full(path);
    sys::path::append(full, name);
    files.push_back(std::string(full));
    return files.back();
  }
};

/// A file made by `write`, which gets a seekable stream (the object writer patches headers).
Error writeFile(const std::string &path, const tlc::ObjectWriter &write) {
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (ec)
    return createStringError(ec, "cannot write '" + path + "': " + ec.message());
  if (Error err = write(os))
    return err;
  os.close();
  if (os.has_error())
    return createStringError(os.error(), "cannot write '" + path + "'");
  return Error::success();
}

/// Makes the symbols in `localize` local in the file at `path`, patched through a shared
/// mapping: only the pages of the symbol table and the relocations change; then, given
/// `out`, writes the file to it.
Error localizeFile(StringRef path, ArrayRef<std::string> localize, raw_ostream *out) {
  ErrorOr<std::unique_ptr<WriteThroughMemoryBuffer>> file = WriteThroughMemoryBuffer::getFile(path);
  if (!file)
    return createStringError(file.getError(),
                             "cannot map the joined object: " + file.getError().message());
  StringSet<> names;
  for (const std::string &name : localize)
    names.insert(name);
  MutableArrayRef<char> bytes((*file)->getBufferStart(), (*file)->getBufferSize());
  if (Error err = tlc::localizeSymbolsInPlace(bytes, names))
    return err;
  if (out)
    out->write(bytes.data(), bytes.size());
  return Error::success();
}

} // namespace

std::optional<std::string> tlc::findLLD() {
  if (const char *chosen = std::getenv("TLC_LLD")) {
    if (*chosen == '\0')
      return std::nullopt;
    if (ErrorOr<std::string> found = sys::findProgramByName(chosen))
      return *found;
    return std::string(chosen);
  }
  if (sys::fs::can_execute(TLC_LLD_PATH))
    return std::string(TLC_LLD_PATH);
  for (const char *name : {"ld.lld-22", "ld.lld"})
    if (ErrorOr<std::string> found = sys::findProgramByName(name))
      return *found;
  return std::nullopt;
}

Error tlc::linkRelocatable(StringRef lld, ArrayRef<ObjectWriter> objects,
                          ArrayRef<std::string> localize, raw_ostream &out, StringRef outPath) {
  TemporaryDirectory dir;
  if (std::error_code ec = sys::fs::createUniqueDirectory("tlc-link", dir.path))
    return createStringError(ec, "cannot create a temporary directory: " + ec.message());
  std::vector<std::string> inputs;
  for (auto [i, write] : llvm::enumerate(objects)) {
    inputs.push_back(dir.file("part" + std::to_string(i) + ".o"));
    if (Error err = writeFile(inputs.back(), write))
      return err;
  }
  // lld writes its output next to it and renames it into place, so `outPath`, which `out`
  // holds open, gets the new file and `out` keeps the old (empty) one, closed untouched.
  std::string output = outPath.empty() ? dir.file("linked.o") : outPath.str();
  std::string messages = dir.file("messages.txt");
  SmallVector<StringRef> args = {lld, "-r", "-o", output};
  for (const std::string &input : inputs)
    args.push_back(input);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(messages), StringRef(messages)};
  std::string failure;
  int rc = sys::ExecuteAndWait(lld, args, std::nullopt, redirects, 0, 0, &failure);
  if (rc != 0) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> text = MemoryBuffer::getFile(messages);
    std::string said = text ? (*text)->getBuffer().trim().str() : failure;
    if (said.empty())
      said = rc < 0 ? "it did not run" : "exit status " + std::to_string(rc);
    return createStringError(inconvertibleErrorCode(), "joining the partitions' objects (" +
                                                           lld + " -r) failed: " + said);
  }
  return localizeFile(output, localize, outPath.empty() ? &out : nullptr);
}
