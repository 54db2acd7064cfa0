// The process heap as a short-lived compiler wants it (see HeapSetup.h).
#include "tools/tlc/HeapSetup.h"

#include <cstdint>
#include <cstdlib> // defines __GLIBC__

#ifndef __has_feature
#define __has_feature(x) 0
#endif
// AddressSanitizer brings its own allocator.
#if defined(__linux__) && defined(__GLIBC__) && !__has_feature(address_sanitizer)
#define TLC_TUNE_GLIBC_HEAP 1
#include <malloc.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#endif

#ifdef TLC_TUNE_GLIBC_HEAP
namespace {

/// Whether the kernel gives transparent huge pages to the ranges a process advises (and only
/// to those: in "always" mode every range gets them, in "never" none).
bool hugePagesOnAdvice() {
  FILE *f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (!f)
    return false;
  char mode[128] = {};
  size_t n = std::fread(mode, 1, sizeof(mode) - 1, f);
  std::fclose(f);
  mode[n] = '\0';
  return std::strstr(mode, "[madvise]") != nullptr;
}

/// Runs this program again with glibc's `glibc.malloc.hugetlb=1` tunable, which advises huge
/// pages for every block glibc maps (large ones get an mmap each) and all of the heap's
/// growth, unless the tunable is set already (so a user can set it to 0, and the second run
/// does not start a third). Tunables are read only at process start, hence the exec; if it
/// fails, the compile goes on in this process.
void reexecWithHugePages(char **argv) {
  const char *tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables && std::strstr(tunables, "glibc.malloc.hugetlb"))
    return;
  // Policy: only for a large input (a model with weights of that size), where the blocks over
  // glibc's mmap threshold are; the exec costs a small compile ~4 ms (the MLP example 112 ms).
  constexpr off_t kLargeInput = off_t(32) << 20;
  bool large = false;
  for (char **arg = argv + 1; *arg && !large; ++arg) {
    struct stat st;
    large =
        **arg != '-' && stat(*arg, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= kLargeInput;
  }
  if (!large || !hugePagesOnAdvice())
    return;
  std::string value = tunables && *tunables ? std::string(tunables) + ":" : std::string();
  value += "glibc.malloc.hugetlb=1";
  if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0)
    return;
  execv("/proc/self/exe", argv);
  // Not replaced: go on without.
  if (tunables)
    setenv("GLIBC_TUNABLES", tunables, 1);
  else
    unsetenv("GLIBC_TUNABLES");
}

} // namespace
#endif

void tlc::setUpCompilerHeap(char **argv) {
#ifdef TLC_TUNE_GLIBC_HEAP
  // Policy. Blocks larger than 32 MiB (a model's weights, the object's sections) are an mmap
  // each in glibc, and the settings below do not reach them: vgg11 (531 MB of weights) spent
  // 9.4 of its 13.2 s in the kernel, faulting in 4 KiB pages; with the tunable, 6.8 s.
  reexecWithHugePages(argv);
  // Policy. Each first touch of a 4 KiB page is a page fault, and on the virtual machines tlc
  // is measured on a fault costs ~10 us: compiling the MLP example took ~4,000 of them, most
  // on fresh heap (weight copies, LLVM's tables), about a fifth of its wall time. So:
  // - blocks up to 32 MiB come from the brk heap, not from an mmap each (glibc's threshold
  //   is 128 KiB and grows only after a free), and freed memory stays in the process;
  // - the heap grows 32 MiB at a time, and its range is marked for transparent huge pages,
  //   so a first touch maps 2 MiB instead of 4 KiB (the "madvise" THP mode lets a process
  //   ask for them).
  // The same as GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.top_pad=32M:... for the
  // main thread's heap. A compile is one short process; the memory kept is returned at exit.
  constexpr size_t kHugePage = size_t(2) << 20;
  constexpr size_t kGrowth = size_t(32) << 20;
  mallopt(M_MMAP_THRESHOLD, 32 << 20); // glibc's maximum
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_TOP_PAD, kGrowth);
  // Grow the heap now by ~60 MiB of address space (a block past the current top makes glibc
  // extend it by the request plus the pad) and advise the grown range. glibc writes the new
  // top chunk's header right after the block, 30 MiB in: that one 4 KiB page is mapped before
  // the advice, so its 2 MiB stays in small pages; the blocks before it, where the compile's
  // allocations go first, are untouched until used. Growth past this range is not advised
  // (it gets the small pages it would have had anyway).
  auto begin = reinterpret_cast<uintptr_t>(sbrk(0));
  void *volatile block = malloc(kGrowth - kHugePage); // volatile: the pair must stay
  free(block);
  auto end = reinterpret_cast<uintptr_t>(sbrk(0));
  uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
  uintptr_t last = end & ~(kHugePage - 1);
  if (last > first)
    madvise(reinterpret_cast<void *>(first), last - first, MADV_HUGEPAGE);
#endif
}
