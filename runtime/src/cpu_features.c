/* Host CPU feature detection (x86-64: cpuid + xgetbv; AArch64 Linux: the kernel's hwcaps) and the
 * names of the features in tlc/cpu_features.h. */
#include "tlc/cpu_features.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* XCR0 bits: the register state the OS saves and restores on context switches. */
#define TLC_XCR0_SSE (1u << 1)
#define TLC_XCR0_AVX (1u << 2)
#define TLC_XCR0_OPMASK (1u << 5)
#define TLC_XCR0_ZMM_HI256 (1u << 6)
#define TLC_XCR0_HI16_ZMM (1u << 7)

#define TLC_STATE_NONE 0u
#define TLC_STATE_AVX (TLC_XCR0_SSE | TLC_XCR0_AVX)
#define TLC_STATE_AVX512 (TLC_STATE_AVX | TLC_XCR0_OPMASK | TLC_XCR0_ZMM_HI256 | TLC_XCR0_HI16_ZMM)

typedef struct cpuid_regs {
  unsigned r[4]; /* indexed by TLC_CPUID_EAX..EDX */
  int valid;
} cpuid_regs;

static cpuid_regs query(unsigned leaf, unsigned subleaf) {
  cpuid_regs q = {{0, 0, 0, 0}, 0};
  /* __get_cpuid_count checks the leaf against the maximum of its range (basic or extended). */
  q.valid = __get_cpuid_count(leaf, subleaf, &q.r[TLC_CPUID_EAX], &q.r[TLC_CPUID_EBX],
                              &q.r[TLC_CPUID_ECX], &q.r[TLC_CPUID_EDX]);
  return q;
}

static unsigned xcr0(void) {
  cpuid_regs one = query(1, 0);
  if (!one.valid || !(one.r[TLC_CPUID_ECX] & (1u << 27))) /* OSXSAVE: xgetbv is usable */
    return 0;
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  (void)hi;
  return lo;
}

uint64_t tlc_cpu_host_features(void) {
  /* The leaves the table uses; subleaf 1 of leaf 7 exists when leaf 7.0 reports it. */
  cpuid_regs leaf1 = query(1, 0), leaf7 = query(7, 0), leaf71 = {{0, 0, 0, 0}, 0},
             ext1 = query(0x80000001u, 0);
  if (leaf7.valid && leaf7.r[TLC_CPUID_EAX] >= 1)
    leaf71 = query(7, 1);
  unsigned os = xcr0();
  uint64_t mask = 0;
#define TLC_DETECT_(id, name, leaf, subleaf, reg, bit, state)                                      \
  {                                                                                                \
    const cpuid_regs *q = (leaf) == 1                                                              \
                              ? &leaf1                                                             \
                              : (leaf) == 0x80000001u ? &ext1 : (subleaf) == 0 ? &leaf7 : &leaf71; \
    if (q->valid && (q->r[reg] >> (bit) & 1u) &&                                                   \
        (os & TLC_STATE_##state) == TLC_STATE_##state)                                             \
      mask |= UINT64_C(1) << TLC_CPU_FEATURE_##id;                                                 \
  }
  TLC_X86_CPU_FEATURES(TLC_DETECT_)
#undef TLC_DETECT_
  return mask;
}

static const char *const feature_names[] = {
#define TLC_NAME_(id, name, leaf, subleaf, reg, bit, state) name,
    TLC_X86_CPU_FEATURES(TLC_NAME_)
#undef TLC_NAME_
};

#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>

uint64_t tlc_cpu_host_features(void) {
  unsigned long words[3] = {0, getauxval(AT_HWCAP), getauxval(AT_HWCAP2)};
  uint64_t mask = 0;
#define TLC_DETECT_(id, name, word, bits)                                                          \
  if ((words[word] & (bits)) == (bits))                                                            \
    mask |= UINT64_C(1) << TLC_AARCH64_CPU_FEATURE_##id;
  TLC_AARCH64_CPU_FEATURES(TLC_DETECT_)
#undef TLC_DETECT_
  return mask;
}

static const char *const feature_names[] = {
#define TLC_NAME_(id, name, word, bits) name,
    TLC_AARCH64_CPU_FEATURES(TLC_NAME_)
#undef TLC_NAME_
};

#else

uint64_t tlc_cpu_host_features(void) { return 0; }

static const char *const feature_names[1] = {NULL};

#endif

const char *tlc_cpu_feature_name(tlc_cpu_feature feature) {
  if ((int)feature < 0 || (int)feature >= TLC_HOST_CPU_FEATURE_COUNT)
    return NULL;
  return feature_names[feature];
}

int tlc_cpu_feature_from_name(const char *name) {
  if (name == NULL)
    return -1;
  for (int i = 0; i < TLC_HOST_CPU_FEATURE_COUNT; ++i)
    if (strcmp(feature_names[i], name) == 0)
      return i;
  return -1;
}
