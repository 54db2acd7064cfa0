# Links LLVM into tlc's tools from its static component archives instead of libLLVM.so.
#
# Debian builds LLVM with LLVM_LINK_LLVM_DYLIB: its exported MLIR libraries link the imported
# shared target `LLVM`, and llvm_config() / LINK_COMPONENTS pick it too. Loading libLLVM.so
# (~230k relocations, symbol lookups against every loaded library, the static initializers of
# all of LLVM) costs each tlc run ~10 ms before main. With the archives (llvm-22-dev's
# /usr/lib/llvm-22/lib/libLLVM*.a) the linker pulls only the objects the tools use.
#
# Included after find_package(MLIR) in the top-level directory, where the imported targets live.

# llvm_config() and add_llvm_executable() map LINK_COMPONENTS to the component archives.
set(LLVM_LINK_LLVM_DYLIB OFF)

# The components the MLIR libraries tlc links use (their transitive dependencies come from
# LLVMExports); "all" would drag in tools' libraries (exegesis, debuginfod) and their system
# dependencies (libpfm, libcurl).
llvm_map_components_to_libnames(_tlc_llvm_archives
  Support Demangle TargetParser BinaryFormat Core AsmParser BitReader BitWriter IRReader Linker
  Analysis TransformUtils ipo Passes FrontendOpenMP MC MCParser Target Object ObjCopy
  X86CodeGen X86AsmParser X86Desc X86Info AArch64CodeGen AArch64AsmParser AArch64Desc AArch64Info)
add_library(TLCStaticLLVM INTERFACE)
target_link_libraries(TLCStaticLLVM INTERFACE ${_tlc_llvm_archives})

# Point every imported MLIR library that links `LLVM` at the archives instead. Both copies in
# one process would register LLVM's command-line options twice.
get_directory_property(_imported IMPORTED_TARGETS)
foreach(_target ${_imported})
  get_target_property(_libs ${_target} INTERFACE_LINK_LIBRARIES)
  if(NOT _libs)
    continue()
  endif()
  set(_replaced ${_libs})
  list(TRANSFORM _replaced REPLACE "^LLVM$" TLCStaticLLVM)
  list(TRANSFORM _replaced REPLACE "^\\$<LINK_ONLY:LLVM>$" "$<LINK_ONLY:TLCStaticLLVM>")
  if(NOT _replaced STREQUAL _libs)
    set_target_properties(${_target} PROPERTIES INTERFACE_LINK_LIBRARIES "${_replaced}")
  endif()
endforeach()

# Drop shared libraries nothing references (LLVMSupport's interface names libz3 for its
# unused SMT solver, for example), so the dynamic loader does not open them at each start.
add_link_options(LINKER:--as-needed)

# The tools are position-dependent executables: a PIE build of this ~100 MB binary carries
# ~94k relative relocations that the loader applies at every start, dirtying the pages of
# .data.rel.ro (vtables, option tables). Position-dependent, `tlc --version` executes 14.03 ->
# 12.80 M instructions (callgrind) with 1047 -> 954 page faults; the objects stay -fPIC.
add_link_options(-no-pie)
