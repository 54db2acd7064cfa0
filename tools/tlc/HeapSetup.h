// Process-level memory settings of the tlc driver.
#ifndef TLC_TOOLS_TLC_HEAPSETUP_H
#define TLC_TOOLS_TLC_HEAPSETUP_H

namespace tlc {
/// Tunes the C library's heap for one compile: large blocks from a heap that grows in big
/// steps backed by transparent huge pages, so the compile takes far fewer page faults.
/// For an input file of 32 MiB or more, where the kernel gives huge pages on advice only, the
/// process first runs itself again
/// with GLIBC_TUNABLES=glibc.malloc.hugetlb=1 added (unless GLIBC_TUNABLES names that tunable
/// already: glibc.malloc.hugetlb=0 turns it off), so large blocks get huge pages too.
/// glibc on Linux only (elsewhere, and under AddressSanitizer, it does nothing). Call first
/// in main(), with main's argv.
void setUpCompilerHeap(char **argv);
} // namespace tlc

#endif // TLC_TOOLS_TLC_HEAPSETUP_H
