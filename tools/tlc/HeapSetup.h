// Process-level memory settings of the tlc driver.
#ifndef TLC_TOOLS_TLC_HEAPSETUP_H
#define TLC_TOOLS_TLC_HEAPSETUP_H

namespace tlc {
/// Tunes the C library's heap for one compile: large blocks from a heap that grows in big
/// steps backed by transparent huge pages, so the compile takes far fewer page faults.
/// glibc on Linux only (elsewhere, and under AddressSanitizer, it does nothing). Call first
/// in main().
void setUpCompilerHeap();
} // namespace tlc

#endif // TLC_TOOLS_TLC_HEAPSETUP_H
