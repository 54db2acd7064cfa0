// CPU targets (x86_64 with AVX2/AVX-512, aarch64 with NEON) through LLVM's TargetMachine.
#ifndef TLC_TARGETS_CPU_CPUTARGET_H
#define TLC_TARGETS_CPU_CPUTARGET_H

namespace tlc {
/// Registers "x86_64" and "aarch64".
void registerCPUTargets();
} // namespace tlc

#endif // TLC_TARGETS_CPU_CPUTARGET_H
