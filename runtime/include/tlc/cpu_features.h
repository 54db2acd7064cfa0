/* The CPU features libtlcrt detects (x86-64 and AArch64), and the run-time dispatch ABI shared by
 * the compiler (which records the features each variant of a multi-CPU object needs) and the
 * runtime. A feature mask indexes the table of the architecture the code runs on: the x86-64
 * table on x86-64 hosts, the AArch64 table on AArch64 hosts. */
#ifndef TLC_CPU_FEATURES_H
#define TLC_CPU_FEATURES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where cpuid reports a feature: X(ID, LLVM name, leaf, subleaf, register, bit, OS state).
 * The register is TLC_CPUID_EAX..EDX. The OS state is the register state XCR0 must enable
 * before the instructions may run: NONE, AVX (xmm + ymm) or AVX512 (xmm + ymm + opmask + zmm).
 * The position in this list is the feature's bit in a feature mask: part of the ABI, so entries
 * are only ever appended. The names are LLVM's (-mattr / target-features). */
#define TLC_CPUID_EAX 0
#define TLC_CPUID_EBX 1
#define TLC_CPUID_ECX 2
#define TLC_CPUID_EDX 3

#define TLC_X86_CPU_FEATURES(X)                                                                    \
  X(CMOV, "cmov", 1, 0, TLC_CPUID_EDX, 15, NONE)                                                   \
  X(CX8, "cx8", 1, 0, TLC_CPUID_EDX, 8, NONE)                                                      \
  X(MMX, "mmx", 1, 0, TLC_CPUID_EDX, 23, NONE)                                                     \
  X(FXSR, "fxsr", 1, 0, TLC_CPUID_EDX, 24, NONE)                                                   \
  X(SSE, "sse", 1, 0, TLC_CPUID_EDX, 25, NONE)                                                     \
  X(SSE2, "sse2", 1, 0, TLC_CPUID_EDX, 26, NONE)                                                   \
  X(SSE3, "sse3", 1, 0, TLC_CPUID_ECX, 0, NONE)                                                    \
  X(PCLMUL, "pclmul", 1, 0, TLC_CPUID_ECX, 1, NONE)                                                \
  X(SSSE3, "ssse3", 1, 0, TLC_CPUID_ECX, 9, NONE)                                                  \
  X(FMA, "fma", 1, 0, TLC_CPUID_ECX, 12, AVX)                                                      \
  X(CX16, "cx16", 1, 0, TLC_CPUID_ECX, 13, NONE)                                                   \
  X(SSE4_1, "sse4.1", 1, 0, TLC_CPUID_ECX, 19, NONE)                                               \
  X(SSE4_2, "sse4.2", 1, 0, TLC_CPUID_ECX, 20, NONE)                                               \
  X(CRC32, "crc32", 1, 0, TLC_CPUID_ECX, 20, NONE)                                                 \
  X(MOVBE, "movbe", 1, 0, TLC_CPUID_ECX, 22, NONE)                                                 \
  X(POPCNT, "popcnt", 1, 0, TLC_CPUID_ECX, 23, NONE)                                               \
  X(AES, "aes", 1, 0, TLC_CPUID_ECX, 25, NONE)                                                     \
  X(XSAVE, "xsave", 1, 0, TLC_CPUID_ECX, 26, NONE)                                                 \
  X(AVX, "avx", 1, 0, TLC_CPUID_ECX, 28, AVX)                                                      \
  X(F16C, "f16c", 1, 0, TLC_CPUID_ECX, 29, AVX)                                                    \
  X(SAHF, "sahf", 0x80000001u, 0, TLC_CPUID_ECX, 0, NONE)                                          \
  X(LZCNT, "lzcnt", 0x80000001u, 0, TLC_CPUID_ECX, 5, NONE)                                        \
  X(SSE4A, "sse4a", 0x80000001u, 0, TLC_CPUID_ECX, 6, NONE)                                        \
  X(PRFCHW, "prfchw", 0x80000001u, 0, TLC_CPUID_ECX, 8, NONE)                                      \
  X(BMI, "bmi", 7, 0, TLC_CPUID_EBX, 3, NONE)                                                      \
  X(AVX2, "avx2", 7, 0, TLC_CPUID_EBX, 5, AVX)                                                     \
  X(BMI2, "bmi2", 7, 0, TLC_CPUID_EBX, 8, NONE)                                                    \
  X(AVX512F, "avx512f", 7, 0, TLC_CPUID_EBX, 16, AVX512)                                           \
  X(AVX512DQ, "avx512dq", 7, 0, TLC_CPUID_EBX, 17, AVX512)                                         \
  X(ADX, "adx", 7, 0, TLC_CPUID_EBX, 19, NONE)                                                     \
  X(AVX512IFMA, "avx512ifma", 7, 0, TLC_CPUID_EBX, 21, AVX512)                                     \
  X(AVX512CD, "avx512cd", 7, 0, TLC_CPUID_EBX, 28, AVX512)                                         \
  X(SHA, "sha", 7, 0, TLC_CPUID_EBX, 29, NONE)                                                     \
  X(AVX512BW, "avx512bw", 7, 0, TLC_CPUID_EBX, 30, AVX512)                                         \
  X(AVX512VL, "avx512vl", 7, 0, TLC_CPUID_EBX, 31, AVX512)                                         \
  X(AVX512VBMI, "avx512vbmi", 7, 0, TLC_CPUID_ECX, 1, AVX512)                                      \
  X(AVX512VBMI2, "avx512vbmi2", 7, 0, TLC_CPUID_ECX, 6, AVX512)                                    \
  X(GFNI, "gfni", 7, 0, TLC_CPUID_ECX, 8, NONE)                                                    \
  X(VAES, "vaes", 7, 0, TLC_CPUID_ECX, 9, AVX)                                                     \
  X(VPCLMULQDQ, "vpclmulqdq", 7, 0, TLC_CPUID_ECX, 10, AVX)                                        \
  X(AVX512VNNI, "avx512vnni", 7, 0, TLC_CPUID_ECX, 11, AVX512)                                     \
  X(AVX512BITALG, "avx512bitalg", 7, 0, TLC_CPUID_ECX, 12, AVX512)                                 \
  X(AVX512VPOPCNTDQ, "avx512vpopcntdq", 7, 0, TLC_CPUID_ECX, 14, AVX512)                           \
  X(AVX512VP2INTERSECT, "avx512vp2intersect", 7, 0, TLC_CPUID_EDX, 8, AVX512)                      \
  X(AVX512FP16, "avx512fp16", 7, 0, TLC_CPUID_EDX, 23, AVX512)                                     \
  X(AVXVNNI, "avxvnni", 7, 1, TLC_CPUID_EAX, 4, AVX)                                               \
  X(AVX512BF16, "avx512bf16", 7, 1, TLC_CPUID_EAX, 5, AVX512)

/* One bit per feature: mask bit (1 << TLC_CPU_FEATURE_X). */
typedef enum tlc_cpu_feature {
#define TLC_CPU_FEATURE_ENUM_(id, name, leaf, subleaf, reg, bit, state) TLC_CPU_FEATURE_##id,
  TLC_X86_CPU_FEATURES(TLC_CPU_FEATURE_ENUM_)
#undef TLC_CPU_FEATURE_ENUM_
  TLC_CPU_FEATURE_COUNT
} tlc_cpu_feature;

/* AArch64 (Linux): where the kernel reports a feature: X(ID, LLVM name, hwcap word, bits). The
 * word is 1 for AT_HWCAP, 2 for AT_HWCAP2; the feature is present when every bit of `bits` is
 * set there (e.g. fullfp16 needs both the scalar and the vector half-precision bits). As for
 * x86, positions are ABI and only ever appended; names are LLVM's (-mattr). */
#define TLC_AARCH64_CPU_FEATURES(X)                                                                \
  X(FP, "fp-armv8", 1, UINT64_C(1) << 0)                                                           \
  X(NEON, "neon", 1, UINT64_C(1) << 1)                                                             \
  X(AES, "aes", 1, (UINT64_C(1) << 3) | (UINT64_C(1) << 4))                                        \
  X(SHA2, "sha2", 1, (UINT64_C(1) << 5) | (UINT64_C(1) << 6))                                      \
  X(CRC, "crc", 1, UINT64_C(1) << 7)                                                               \
  X(LSE, "lse", 1, UINT64_C(1) << 8)                                                               \
  X(FULLFP16, "fullfp16", 1, (UINT64_C(1) << 9) | (UINT64_C(1) << 10))                             \
  X(RDM, "rdm", 1, UINT64_C(1) << 12)                                                              \
  X(JSCONV, "jsconv", 1, UINT64_C(1) << 13)                                                        \
  X(COMPLXNUM, "complxnum", 1, UINT64_C(1) << 14)                                                  \
  X(RCPC, "rcpc", 1, UINT64_C(1) << 15)                                                            \
  X(SHA3, "sha3", 1, (UINT64_C(1) << 17) | (UINT64_C(1) << 21))                                    \
  X(SM4, "sm4", 1, (UINT64_C(1) << 18) | (UINT64_C(1) << 19))                                      \
  X(DOTPROD, "dotprod", 1, UINT64_C(1) << 20)                                                      \
  X(SVE, "sve", 1, UINT64_C(1) << 22)                                                              \
  X(FP16FML, "fp16fml", 1, UINT64_C(1) << 23)                                                      \
  X(RCPC_IMMO, "rcpc-immo", 1, UINT64_C(1) << 26)                                                  \
  X(FLAGM, "flagm", 1, UINT64_C(1) << 27)                                                          \
  X(SVE2, "sve2", 2, UINT64_C(1) << 1)                                                             \
  X(ALTNZCV, "altnzcv", 2, UINT64_C(1) << 7)                                                       \
  X(FPTOINT, "fptoint", 2, UINT64_C(1) << 8)                                                       \
  X(F32MM, "f32mm", 2, UINT64_C(1) << 10)                                                          \
  X(F64MM, "f64mm", 2, UINT64_C(1) << 11)                                                          \
  X(I8MM, "i8mm", 2, UINT64_C(1) << 13)                                                            \
  X(BF16, "bf16", 2, UINT64_C(1) << 14)                                                            \
  X(SVE_AES, "sve-aes", 2, (UINT64_C(1) << 2) | (UINT64_C(1) << 3))                                \
  X(SVE_BITPERM, "sve-bitperm", 2, UINT64_C(1) << 4)                                               \
  X(SVE_SHA3, "sve-sha3", 2, UINT64_C(1) << 5)                                                     \
  X(SVE_SM4, "sve-sm4", 2, UINT64_C(1) << 6)                                                       \
  X(CSSC, "cssc", 2, UINT64_C(1) << 34)                                                            \
  X(MOPS, "mops", 2, UINT64_C(1) << 43)

typedef enum tlc_aarch64_cpu_feature {
#define TLC_AARCH64_CPU_FEATURE_ENUM_(id, name, word, bits) TLC_AARCH64_CPU_FEATURE_##id,
  TLC_AARCH64_CPU_FEATURES(TLC_AARCH64_CPU_FEATURE_ENUM_)
#undef TLC_AARCH64_CPU_FEATURE_ENUM_
  TLC_AARCH64_CPU_FEATURE_COUNT
} tlc_aarch64_cpu_feature;

/* The number of features in the host architecture's table (0 where the runtime detects none). */
#if defined(__aarch64__)
#define TLC_HOST_CPU_FEATURE_COUNT TLC_AARCH64_CPU_FEATURE_COUNT
#elif defined(__x86_64__) || defined(__i386__)
#define TLC_HOST_CPU_FEATURE_COUNT TLC_CPU_FEATURE_COUNT
#else
#define TLC_HOST_CPU_FEATURE_COUNT 0
#endif

/* One code variant of a model compiled for several CPUs (`tlc --cpu=a,b,...`). Generated objects
 * hold a table of these, most capable variant first. */
typedef struct tlc_cpu_variant {
  const char *name;           /* the CPU it was compiled for, as given to --cpu */
  uint64_t required_features; /* every feature its code may use: (1 << TLC_CPU_FEATURE_*) bits */
} tlc_cpu_variant;

/* Generated tables are LLVM arrays of {ptr, i64}: the layout on the 64-bit targets tlc emits. */
#if UINTPTR_MAX == UINT64_MAX
#ifdef __cplusplus
static_assert(TLC_CPU_FEATURE_COUNT <= 64, "feature masks are 64 bits");
static_assert(TLC_AARCH64_CPU_FEATURE_COUNT <= 64, "feature masks are 64 bits");
static_assert(sizeof(tlc_cpu_variant) == 16 && offsetof(tlc_cpu_variant, required_features) == 8,
              "generated dispatch tables are {ptr, i64}");
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(TLC_CPU_FEATURE_COUNT <= 64, "feature masks are 64 bits");
_Static_assert(TLC_AARCH64_CPU_FEATURE_COUNT <= 64, "feature masks are 64 bits");
_Static_assert(sizeof(tlc_cpu_variant) == 16 && offsetof(tlc_cpu_variant, required_features) == 8,
               "generated dispatch tables are {ptr, i64}");
#endif
#endif

/* The host's features as a mask over the host architecture's table. x86-64: from cpuid (and
 * xgetbv: an AVX or AVX-512 feature counts only when the OS has enabled that register state);
 * AArch64 Linux: from the kernel's AT_HWCAP / AT_HWCAP2; 0 elsewhere. Queries the hardware on
 * every call; generated dispatchers call it once per model and cache their choice. */
uint64_t tlc_cpu_host_features(void);

/* LLVM's name of feature `feature` of the host architecture's table ("avx512f" on x86-64,
 * "dotprod" for TLC_AARCH64_CPU_FEATURE_DOTPROD on AArch64); NULL for values outside it. */
const char *tlc_cpu_feature_name(tlc_cpu_feature feature);

/* The feature of the host architecture's table named `name` (LLVM's spelling), or -1 if the
 * runtime does not know it. */
int tlc_cpu_feature_from_name(const char *name);

/* The variant to run on a host with `host_features`: if `forced` is a non-empty name, the
 * variant of that name, provided the host has all its features; otherwise the first variant
 * (the table is ordered most capable first) whose features the host has. Returns its index, or
 * -1 if there is none (no runnable variant, or `forced` names none or an unrunnable one). */
int tlc_cpu_pick_variant(const tlc_cpu_variant *variants, int count, uint64_t host_features,
                         const char *forced);

/* What the NAME_run of a multi-CPU object calls on its first run: tlc_cpu_pick_variant with the
 * host's features, forced by the environment variable TLC_CPU_VARIANT when it is set and
 * non-empty. With TLC_CPU_VERBOSE set to a non-empty value other than "0", prints the choice
 * (or why there is none) to stderr. Returns the index, or -1 (the model then returns
 * TLC_STATUS_UNSUPPORTED). */
int tlc_cpu_select_variant(const char *model, const tlc_cpu_variant *variants, int count);

#ifdef __cplusplus
}
#endif

#endif /* TLC_CPU_FEATURES_H */
