/* A model whose run writes one byte past its output (-DPAST_OUTPUT=BYTES, the output's size) or
 * past its workspace (-DPAST_WORKSPACE=BYTES), for tlc-run's guard check: it wraps the real
 * m_run of a compiled model, renamed m_run_inner, as a code generation bug would behave.
 * Without either macro it is the model unchanged. The signature is the one tlc-run calls
 * through (void pointers, int), so UBSan's function-type check passes in sanitized builds. */
int m_run_inner(void *a, void *b, void *workspace);

int m_run(void *a, void *b, void *workspace) {
  int status = m_run_inner(a, b, workspace);
#ifdef PAST_OUTPUT
  ((unsigned char *)b)[PAST_OUTPUT] ^= 1;
#endif
#ifdef PAST_WORKSPACE
  ((unsigned char *)workspace)[PAST_WORKSPACE] ^= 1;
#endif
  return status;
}
