/* Version and ABI identification: lets apps and generated objects check they match this library. */
#include "tlc/runtime.h"

/* CMake passes the project version; the fallback serves builds that compile the runtime sources
 * directly (e.g. the AArch64 cross-compiled end-to-end tests). Keep it equal to project(VERSION). */
#ifndef TLC_RUNTIME_VERSION_STRING
#define TLC_RUNTIME_VERSION_STRING "0.1.0"
#endif

int tlc_abi_version(void) { return TLC_ABI_VERSION; }

const char *tlc_version_string(void) { return TLC_RUNTIME_VERSION_STRING; }

tlc_status tlc_check_abi(int model_abi_version) {
  return model_abi_version == TLC_ABI_VERSION ? TLC_STATUS_OK : TLC_STATUS_ABI_MISMATCH;
}
