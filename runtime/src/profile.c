/* The clock of profiled models (tlc --profile): each kernel adds the difference of two calls
 * to its entry of NAME_profile_ns. */
#define _POSIX_C_SOURCE 199309L
#include "tlc/runtime.h"

#include <time.h>

uint64_t tlc_profile_clock(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
