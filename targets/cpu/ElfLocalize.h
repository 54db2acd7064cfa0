// Making global symbols of an ELF relocatable object local, in place: what
// `llvm-objcopy --localize-symbol` does, without rewriting the object. llvm-objcopy copies
// every section into a new buffer; for a model with a gigabyte of weights that copy (and the
// zeroed buffer under it) was the largest part of its compile. Only the symbol table and the
// relocations change: locals come first in an ELF symbol table, so the symbols made local
// move before the remaining globals and every relocation's symbol index follows them.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

namespace tlc {

/// Gives each defined global (or weak) symbol of `object` (an ELF relocatable file, any
/// class and byte order) whose name is in `names` local binding, keeping its other fields, and
/// reorders the symbol table and renumbers the relocations to match. Undefined symbols stay
/// as they are. Fails, leaving `object` unchanged, on a file that is not a relocatable ELF
/// object or that has sections naming symbols by index other than relocations (section
/// groups, extended section indices, address-significance tables).
llvm::Error localizeSymbolsInPlace(llvm::MutableArrayRef<char> object,
                                   const llvm::StringSet<> &names);

} // namespace tlc
