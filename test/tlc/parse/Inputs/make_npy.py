# Regenerates the .npy fixtures of the .tl parse and error tests (run with /usr/bin/python3).
import os
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
errors = os.path.join(here, "..", "..", "errors", "Inputs")

np.save(os.path.join(here, "w_f32.npy"), np.arange(6, dtype=np.float32).reshape(2, 3) / 4)
np.save(os.path.join(here, "w_i64.npy"), np.array([[7, -2]], dtype=np.int64))
np.save(os.path.join(here, "w_b1.npy"), np.array([True, False, True]))
np.save(os.path.join(here, "w_f16.npy"), np.array([0.5, -1.5], dtype=np.float16))
with open(os.path.join(here, "w_v2_i32.npy"), "wb") as f:
    np.lib.format.write_array(f, np.array([1, 2, 3], dtype=np.int32), version=(2, 0))

np.save(os.path.join(errors, "w_2x3.npy"), np.zeros((2, 3), dtype=np.float32))
with open(os.path.join(errors, "w_2x3.npy"), "rb") as f:
    data = f.read()
with open(os.path.join(errors, "truncated.npy"), "wb") as f:
    f.write(data[:-4])
with open(os.path.join(errors, "not-npy.npy"), "wb") as f:
    f.write(b"this is not an npy file\n")
