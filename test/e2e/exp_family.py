"""The checks shared by the exp and exp2 accuracy tests: tlc's f32 result `y` of the function
at `x` against its fp64 value `ref`, the layouts `x` is evaluated in, and the report."""
import numpy as np


def check_exp_like(name, x, y, ref, max_ulp, flush_tiny):
    """NaN for NaN and not for anything else, +inf above f32's range, at most `max_ulp` ulp
    where the result is at least 2^-125, name(0) == 1 (x holds 0 and -0), and below 2^-126
    either +0 exactly (`flush_tiny`) or within 2^-126 and not negative (denormals allowed).
    Returns the failures (text) and the worst ulp error."""
    failures = []
    nan = np.isnan(x)
    if not np.all(np.isnan(y[nan])):
        failures.append("NaN input did not give NaN")
    if np.isnan(y[~nan]).any():
        failures.append("NaN for non-NaN inputs: %s" % x[~nan][np.isnan(y[~nan])][:5])
    over = ~nan & (ref > np.finfo(np.float32).max)
    if not np.all(y[over] == np.inf):
        failures.append("overflow did not give +inf: %s" % x[over][y[over] != np.inf][:5])
    tiny = ~nan & (ref < 2.0 ** -126)
    if flush_tiny:
        if not np.all((y[tiny] == 0) & ~np.signbit(y[tiny])):
            failures.append("results below 2^-126 not flushed to +0: %s"
                            % x[tiny][y[tiny] != 0][:5])
    else:
        bad_tiny = (np.abs(y[tiny] - ref[tiny]) > 2.0 ** -126) | np.signbit(y[tiny])
        if bad_tiny.any():
            failures.append("results below 2^-126 not within 2^-126 and >= +0: %s"
                            % x[tiny][bad_tiny][:5])
    normal = ~nan & ~over & (ref >= 2.0 ** -125)
    ulp = np.spacing(ref[normal].astype(np.float32)).astype(np.float64)
    err = np.abs(y[normal] - ref[normal]) / ulp
    worst = err.max()
    if worst > max_ulp:
        i = np.argmax(err)
        failures.append("%.2f ulp at x=%r (got %r, want %r)" % (worst, float(x[normal][i]),
                                                              y[normal][i], ref[normal][i]))
    if y[np.where(x == 0)[0]].tolist() != [1.0, 1.0]:
        failures.append("%s(0) != 1" % name)
    return failures, worst


def layouts(x, cols):
    """`x` as one 1-D tensor (an odd length: the vector loop's masked tail) and as rows of
    `cols` (the whole-vector row forms; zero-padded to a multiple of 64 rows)."""
    padded = np.concatenate([x, np.zeros(-x.size % (64 * cols), np.float32)])
    return (("1-d", x), ("rows", padded.reshape(-1, cols)))


def report(name, cpu, failures, worst):
    """Prints each failure, or PASS with the worst ulp error; returns the exit status."""
    for f in failures:
        print("FAIL %s %s: %s" % (name, cpu, f))
    if not failures:
        print("PASS %s %s max-ulp=%.2f" % (name, cpu, worst))
    return 1 if failures else 0
