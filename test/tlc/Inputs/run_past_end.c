/* A model whose run writes one byte past its output (-DPAST_OUTPUT) or past its workspace
 * (-DPAST_WORKSPACE), for tlc-run's guard check: it wraps the real m_run of a compiled model,
 * renamed m_run_inner, as a code generation bug would behave. Without either macro it is the
 * model unchanged. */
#include "m.h"

tlc_status m_run_inner(const float *a, float *b, void *workspace);

tlc_status m_run(const float *a, float *b, void *workspace) {
  tlc_status status = m_run_inner(a, b, workspace);
#ifdef PAST_OUTPUT
  ((unsigned char *)b)[M_OUTPUT_B_NUMEL * sizeof(float)] ^= 1;
#endif
#ifdef PAST_WORKSPACE
  ((unsigned char *)workspace)[M_WORKSPACE_SIZE] ^= 1;
#endif
  return status;
}
