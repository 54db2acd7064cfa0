/* Human-readable messages for tlc_status codes. */
#include "tlc/runtime.h"

const char *tlc_status_string(tlc_status status) {
  /* A switch rather than a table indexed by the value: out-of-range values (from a newer
   * runtime, or garbage) must land on the default, never read out of bounds. */
  switch (status) {
  case TLC_STATUS_OK:
    return "ok";
  case TLC_STATUS_INVALID_ARGUMENT:
    return "invalid argument";
  case TLC_STATUS_OUT_OF_MEMORY:
    return "out of memory";
  case TLC_STATUS_ABI_MISMATCH:
    return "ABI version mismatch between model and runtime";
  case TLC_STATUS_UNSUPPORTED:
    return "unsupported";
  case TLC_STATUS_INTERNAL:
    return "internal error";
  }
  return "unknown status";
}
