// Making global symbols of an ELF relocatable object local, in place (ElfLocalize.h).
#include "targets/cpu/ElfLocalize.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELF.h"

#include <vector>

using namespace llvm;

namespace {

Error failure(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), "cannot make symbols local: " + message);
}

template <class ELFT>
Error localize(MutableArrayRef<char> object, const StringSet<> &names) {
  using Shdr = typename ELFT::Shdr;
  using Sym = typename ELFT::Sym;
  using Rela = typename ELFT::Rela;
  using Rel = typename ELFT::Rel;
  Expected<object::ELFFile<ELFT>> file =
      object::ELFFile<ELFT>::create(StringRef(object.data(), object.size()));
  if (!file)
    return file.takeError();
  if (file->getHeader().e_type != ELF::ET_REL)
    return failure("not a relocatable object");
  Expected<typename ELFT::ShdrRange> sections = file->sections();
  if (!sections)
    return sections.takeError();

  // Everything that names symbols by index must be understood before anything changes.
  const Shdr *symtab = nullptr;
  size_t symtabIndex = 0;
  SmallVector<const Shdr *> relocations;
  for (auto [i, section] : llvm::enumerate(*sections)) {
    switch (section.sh_type) {
    case ELF::SHT_SYMTAB:
      if (symtab)
        return failure("the object has two symbol tables");
      symtab = &section;
      symtabIndex = i;
      break;
    case ELF::SHT_REL:
    case ELF::SHT_RELA:
      relocations.push_back(&section);
      break;
    case ELF::SHT_GROUP:
    case ELF::SHT_SYMTAB_SHNDX:
    case ELF::SHT_CREL:
    case ELF::SHT_LLVM_ADDRSIG:
    case ELF::SHT_LLVM_CALL_GRAPH_PROFILE: {
      Expected<StringRef> name = file->getSectionName(section);
      return failure("section " + (name ? "'" + *name + "'" : Twine(i)) +
                     " refers to symbols by index (type " + Twine(section.sh_type) + ")");
    }
    default:
      break;
    }
  }
  if (!symtab)
    return Error::success(); // no symbols, nothing to localize
  Expected<typename ELFT::SymRange> symbols = file->symbols(symtab);
  if (!symbols)
    return symbols.takeError();
  Expected<StringRef> strtab = file->getStringTableForSymtab(*symtab);
  if (!strtab)
    return strtab.takeError();
  size_t count = symbols->size(), firstGlobal = symtab->sh_info;
  if (firstGlobal > count)
    return failure("the symbol table's first global is past its end");

  // The symbols made local keep their order and go right after the existing locals.
  std::vector<uint32_t> newIndex(count);
  std::vector<bool> makeLocal(count, false);
  for (size_t i = 0; i < firstGlobal; ++i)
    newIndex[i] = i;
  size_t next = firstGlobal;
  for (size_t i = firstGlobal; i < count; ++i) {
    const Sym &symbol = (*symbols)[i];
    if (symbol.getBinding() == ELF::STB_LOCAL)
      return failure("local symbol " + Twine(i) + " after the first global");
    if (symbol.st_shndx == ELF::SHN_UNDEF || symbol.st_shndx == ELF::SHN_COMMON)
      continue;
    Expected<StringRef> name = symbol.getName(*strtab);
    if (!name)
      return name.takeError();
    if (names.contains(*name)) {
      makeLocal[i] = true;
      newIndex[i] = next++;
    }
  }
  size_t locals = next;
  if (locals == firstGlobal)
    return Error::success();
  for (size_t i = firstGlobal; i < count; ++i)
    if (!makeLocal[i])
      newIndex[i] = next++;

  bool mips64el = file->isMips64EL();
  for (const Shdr *section : relocations) {
    if (section->sh_link != symtabIndex)
      return failure("a relocation section refers to another symbol table");
    auto check = [&](auto entries) -> Error {
      if (!entries)
        return entries.takeError();
      for (const auto &entry : *entries)
        if (entry.getSymbol(mips64el) >= count)
          return failure("a relocation names symbol " + Twine(entry.getSymbol(mips64el)) +
                         " of " + Twine(count));
      return Error::success();
    };
    if (Error err = section->sh_type == ELF::SHT_RELA ? check(file->relas(*section))
                                                      : check(file->rels(*section)))
      return err;
  }

  // Checked: rewrite the table, its header's first-global index and the relocations.
  std::vector<Sym> old(symbols->begin(), symbols->end());
  auto *table = reinterpret_cast<Sym *>(object.data() + symtab->sh_offset);
  for (size_t i = 0; i < count; ++i) {
    table[newIndex[i]] = old[i];
    if (makeLocal[i])
      table[newIndex[i]].setBinding(ELF::STB_LOCAL);
  }
  auto *headers = reinterpret_cast<Shdr *>(object.data() + file->getHeader().e_shoff);
  headers[symtabIndex].sh_info = locals;
  for (const Shdr *section : relocations) {
    auto renumber = [&](auto *entries, size_t n) {
      for (size_t i = 0; i < n; ++i) {
        uint32_t symbol = entries[i].getSymbol(mips64el);
        entries[i].setSymbolAndType(newIndex[symbol], entries[i].getType(mips64el), mips64el);
      }
    };
    char *at = object.data() + section->sh_offset;
    if (section->sh_type == ELF::SHT_RELA)
      renumber(reinterpret_cast<Rela *>(at), section->sh_size / sizeof(Rela));
    else
      renumber(reinterpret_cast<Rel *>(at), section->sh_size / sizeof(Rel));
  }
  return Error::success();
}

} // namespace

Error tlc::localizeSymbolsInPlace(MutableArrayRef<char> object, const StringSet<> &names) {
  StringRef bytes(object.data(), object.size());
  if (!bytes.starts_with("\x7f"
                         "ELF") ||
      bytes.size() < ELF::EI_NIDENT)
    return failure("not an ELF file");
  auto [elfClass, byteOrder] = object::getElfArchType(bytes);
  if (byteOrder != ELF::ELFDATA2LSB && byteOrder != ELF::ELFDATA2MSB)
    return failure("unknown ELF byte order");
  bool little = byteOrder == ELF::ELFDATA2LSB;
  if (elfClass == ELF::ELFCLASS64)
    return little ? localize<object::ELF64LE>(object, names)
                  : localize<object::ELF64BE>(object, names);
  if (elfClass == ELF::ELFCLASS32)
    return little ? localize<object::ELF32LE>(object, names)
                  : localize<object::ELF32BE>(object, names);
  return failure("unknown ELF class");
}
