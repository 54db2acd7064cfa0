// ld.lld -r, run as a program, and llvm-objcopy --localize-symbol as a library
// (RelocatableLink.h).
#include "targets/cpu/RelocatableLink.h"

#include "llvm/ObjCopy/CommonConfig.h"
#include "llvm/ObjCopy/ELF/ELFConfig.h"
#include "llvm/ObjCopy/ELF/ELFObjcopy.h"
#include "llvm/Object/ELFObjectFile.h"
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

Error writeFile(const std::string &path, ArrayRef<char> bytes) {
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (ec)
    return createStringError(ec, "cannot write '" + path + "': " + ec.message());
  os.write(bytes.data(), bytes.size());
  os.close();
  if (os.has_error())
    return createStringError(os.error(), "cannot write '" + path + "'");
  return Error::success();
}

/// `object` with the symbols named in `names` made local.
Expected<SmallVector<char, 0>> localizeSymbols(MemoryBufferRef object, ArrayRef<std::string> names) {
  Expected<std::unique_ptr<object::ObjectFile>> file = object::ObjectFile::createObjectFile(object);
  if (!file)
    return file.takeError();
  auto *elf = dyn_cast<object::ELFObjectFileBase>(file->get());
  if (!elf)
    return createStringError(inconvertibleErrorCode(), "the linked object is not ELF");
  objcopy::CommonConfig config;
  auto passOn = [](Error err) { return err; };
  for (const std::string &name : names)
    if (Error err = config.SymbolsToLocalize.addMatcher(
            objcopy::NameOrPattern::create(name, objcopy::MatchStyle::Literal, passOn)))
      return std::move(err);
  objcopy::ELFConfig elfConfig;
  SmallVector<char, 0> result;
  raw_svector_ostream os(result);
  if (Error err = objcopy::elf::executeObjcopyOnBinary(config, elfConfig, *elf, os))
    return std::move(err);
  return result;
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

Expected<SmallVector<char, 0>> tlc::linkRelocatable(StringRef lld,
                                                    ArrayRef<SmallVector<char, 0>> objects,
                                                    ArrayRef<std::string> localize) {
  TemporaryDirectory dir;
  if (std::error_code ec = sys::fs::createUniqueDirectory("tlc-link", dir.path))
    return createStringError(ec, "cannot create a temporary directory: " + ec.message());
  std::vector<std::string> inputs;
  for (auto [i, object] : llvm::enumerate(objects)) {
    inputs.push_back(dir.file("part" + std::to_string(i) + ".o"));
    if (Error err = writeFile(inputs.back(), object))
      return std::move(err);
  }
  std::string output = dir.file("linked.o");
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
  ErrorOr<std::unique_ptr<MemoryBuffer>> linked = MemoryBuffer::getFile(output);
  if (!linked)
    return createStringError(linked.getError(), "cannot read the joined object: " +
                                                    linked.getError().message());
  return localizeSymbols((*linked)->getMemBufferRef(), localize);
}
