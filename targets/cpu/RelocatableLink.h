// One relocatable object from several (ld.lld -r), with chosen symbols made local afterwards
// (llvm-objcopy --localize-symbol, as a library): how the objects of a module's partitions,
// generated on separate threads, become the one object tlc writes.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace tlc {

/// The ld.lld to run: $TLC_LLD if set (a path or a name on PATH; empty: none), else LLVM's
/// own (lld-22's, where tlc was built), else ld.lld-22 or ld.lld on PATH; none when there is
/// none (code is then generated on one thread).
std::optional<std::string> findLLD();

/// Links the ELF relocatable objects `objects` (in this order) into one relocatable object
/// with `lld -r` (findLLD's), then gives each symbol named in `localize` local binding. The objects
/// pass through files in a fresh temporary directory, removed afterwards. Errors carry lld's
/// or objcopy's message.
llvm::Expected<llvm::SmallVector<char, 0>>
linkRelocatable(llvm::StringRef lld, llvm::ArrayRef<llvm::SmallVector<char, 0>> objects,
                llvm::ArrayRef<std::string> localize);

} // namespace tlc
