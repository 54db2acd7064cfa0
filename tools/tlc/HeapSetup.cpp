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
#include <unistd.h>
#endif

void tlc::setUpCompilerHeap() {
#ifdef TLC_TUNE_GLIBC_HEAP
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
