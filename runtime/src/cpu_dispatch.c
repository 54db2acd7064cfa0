/* Run-time choice of a multi-CPU model's code variant: policy (tlc_cpu_pick_variant) and the
 * host + environment wrapper generated dispatchers call (tlc_cpu_select_variant). */
#include "tlc/cpu_features.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int runnable(const tlc_cpu_variant *v, uint64_t host_features) {
  return (v->required_features & ~host_features) == 0;
}

int tlc_cpu_pick_variant(const tlc_cpu_variant *variants, int count, uint64_t host_features,
                         const char *forced) {
  if (variants == NULL || count <= 0)
    return -1;
  int want_name = forced != NULL && forced[0] != '\0';
  for (int i = 0; i < count; ++i) {
    if (want_name && (variants[i].name == NULL || strcmp(variants[i].name, forced) != 0))
      continue;
    if (runnable(&variants[i], host_features))
      return i;
    if (want_name)
      return -1; /* forced onto a variant this host cannot run: never fall back silently */
  }
  return -1;
}

static int verbose(void) {
  const char *v = getenv("TLC_CPU_VERBOSE");
  return v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
}

/* Names the features `missing` on stderr, space-separated. */
static void print_features(uint64_t missing) {
  for (int f = 0; f < TLC_HOST_CPU_FEATURE_COUNT; ++f)
    if (missing >> f & 1u)
      fprintf(stderr, " %s", tlc_cpu_feature_name((tlc_cpu_feature)f));
}

int tlc_cpu_select_variant(const char *model, const tlc_cpu_variant *variants, int count) {
  uint64_t host = tlc_cpu_host_features();
  const char *forced = getenv("TLC_CPU_VARIANT");
  int chosen = tlc_cpu_pick_variant(variants, count, host, forced);
  if (!verbose())
    return chosen;
  const char *who = model != NULL ? model : "model";
  if (chosen >= 0) {
    fprintf(stderr, "tlc: %s: running the %s variant%s\n", who, variants[chosen].name,
            forced != NULL && forced[0] != '\0' ? " (TLC_CPU_VARIANT)" : "");
    return chosen;
  }
  int named = 0;
  for (int i = 0; forced != NULL && forced[0] != '\0' && variants != NULL && i < count; ++i)
    named |= variants[i].name != NULL && strcmp(variants[i].name, forced) == 0;
  if (forced == NULL || forced[0] == '\0')
    fprintf(stderr, "tlc: %s: no variant runs on this CPU\n", who);
  else if (named)
    fprintf(stderr, "tlc: %s: TLC_CPU_VARIANT=%s does not run on this CPU\n", who, forced);
  else
    fprintf(stderr, "tlc: %s: TLC_CPU_VARIANT=%s names none of its variants\n", who, forced);
  for (int i = 0; variants != NULL && i < count; ++i) {
    fprintf(stderr, "tlc: %s:   %s", who, variants[i].name);
    if (runnable(&variants[i], host)) {
      fprintf(stderr, ": runnable\n");
      continue;
    }
    fprintf(stderr, ": missing");
    print_features(variants[i].required_features & ~host);
    fprintf(stderr, "\n");
  }
  return -1;
}
