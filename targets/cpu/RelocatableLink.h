// One relocatable object from several (ld.lld -r), with chosen symbols made local afterwards
// (ElfLocalize.h): how the objects of a module's partitions, generated on separate threads,
// become the one object tlc writes.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <string>

namespace tlc {

/// The ld.lld to run: $TLC_LLD if set (a path or a name on PATH; empty: none), else LLVM's
/// own (lld-22's, where tlc was built), else ld.lld-22 or ld.lld on PATH; none when there is
/// none (code is then generated on one thread).
std::optional<std::string> findLLD();

/// Writes one input object of a link into the (seekable) file stream it is given.
using ObjectWriter = std::function<llvm::Error(llvm::raw_pwrite_stream &)>;

/// Links the ELF relocatable objects `objects` write (in this order) into one relocatable
/// object with `lld -r` (findLLD's), gives each defined symbol named in `localize` local
/// binding, and writes the result to `out`, or, given `outPath` (the file `out` writes),
/// has lld write it there (renamed over that file; `out` is left untouched). The objects
/// pass through files in a fresh temporary directory, removed afterwards: each writer writes
/// its file directly, and the joined object goes from its file to `out` (or is the output
/// file), so a model's weights are copied once per step, not held in memory buffers. Errors
/// carry lld's message.
llvm::Error linkRelocatable(llvm::StringRef lld, llvm::ArrayRef<ObjectWriter> objects,
                            llvm::ArrayRef<std::string> localize, llvm::raw_ostream &out,
                            llvm::StringRef outPath = {});

} // namespace tlc
