#!/usr/bin/python3
"""End-to-end numeric test: compile `.tl` models with tlc, run them from C, compare with tlref.

  run_e2e.py --tlc PATH (--runtime-src DIR | --runtime-lib LIB) --include DIR
             [--target x86_64|aarch64] [--cpu CPU[,CPU...]] [--cpu-variants V,...|auto]
             [--seed S] [--rtol 1e-5] [--keep DIR [--prepare-only]] [--tlc-flag FLAG ...]
             MODEL.tl [MODEL2.tl ...]
  run_e2e.py --run-prepared DIR

For each model (C name = the file stem made a C identifier):
  1. `tlc MODEL.tl -o m.o --header m.h --name NAME [--target T] [--cpu C]`;
  2. parse the header's macros (ABI version, input/output counts, dtypes, ranks, shapes, numels,
     workspace size) and the NAME_run prototype, and check them against tlref.parse(MODEL);
  3. draw seeded random inputs (f32/f64/f16/bf16 ~ N(0,1) rounded to the dtype, ints in [-5, 5],
     i1 random) and write them as raw little-endian files;
  4. generate a C harness (main.c) that reads them into TLC_BUFFER_ALIGNMENT-aligned buffers,
     fills the outputs with 0xFF bytes (NaN for floats, so unwritten elements are caught),
     allocates the workspace with tlc_workspace_alloc, calls NAME_run twice (the ABI promises no
     state between calls: both results must be bitwise equal), checks that NULL for each
     non-empty input or output buffer in turn is rejected with TLC_STATUS_INVALID_ARGUMENT, and
     writes the outputs to files;
  5. link it with the model object and the runtime (native: `cc -O2`; aarch64:
     `aarch64-linux-gnu-gcc -O2 -static`, run under `qemu-aarch64 -L /usr/aarch64-linux-gnu`);
  6. compare every output with tlref's float64 reference.

For GPU targets (--target vulkan|cuda) the harness opens the backend's first device, uploads
the inputs, runs NAME_run twice (outputs refilled with 0xFF bytes before each; both results
bitwise equal) and downloads; with TLC_E2E_TIME=N it then times N more runs (device time,
`time NAME device_ms_median=...` lines). To run on a machine that cannot compile (a lent GPU):
`--prepare-only --keep DIR` stops before running and keeps the linked harnesses, inputs and
float64 references; `run_e2e.py --run-prepared DIR` (numpy only) runs and compares them there.

With --cpu-variants (for objects compiled with a --cpu list), step 5's run and step 6 repeat
once per listed variant, with TLC_CPU_VARIANT set to it (`auto`: unset, the runtime's own
choice) and TLC_CPU_VERBOSE=1: the runtime's report on stderr must name the variant that ran
(the forced one), and result lines carry it, e.g. `PASS mm/c [x86-64-v3] ...`.

Tolerance rule (per output tensor, elementwise):

    pass  iff  |out - ref| <= atol + rtol * |ref|   for every element,
    with atol = rtol * max(1, max |ref| over that output).

rtol is --rtol (default 1e-5) for f32/f64 outputs; for f16 and bf16 outputs it is at least 1e-2
and 6e-2 (their epsilons are 2^-10 and 2^-7); integer and i1 outputs must match exactly. NaN in
the reference must be NaN in the output, infinities must match exactly. The printed
`max_rel_err` is max |out - ref| / (max(1, max|ref|) + |ref|), i.e. the error in the unit the
rule compares with rtol (pass iff max_rel_err <= rtol); `max_abs_err` is max |out - ref|.

Output: one line per model and output, `PASS name/output max_abs_err=.. max_rel_err=..` or
`FAIL name/output ...` with the worst element's index, value and reference; failures of tlc,
of the link, of the run (exit status, signal, timeout, non-OK status) are `FAIL name: ...` lines
followed by the tool's stderr. The last line is `ALL PASSED (N models)` or
`FAILED (k of N models)`; the exit status is 1 if anything failed.
"""

import argparse
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tlref  # noqa: E402

C_TYPES = {"f32": "float", "f64": "double", "f16": "uint16_t", "bf16": "uint16_t",
           "i32": "int32_t", "i64": "int64_t", "i1": "uint8_t"}
DTYPE_MACROS = {"f32": "TLC_DTYPE_F32", "f64": "TLC_DTYPE_F64", "f16": "TLC_DTYPE_F16",
                "bf16": "TLC_DTYPE_BF16", "i32": "TLC_DTYPE_I32", "i64": "TLC_DTYPE_I64",
                "i1": "TLC_DTYPE_I1"}
RTOL_FLOOR = {"f16": 1e-2, "bf16": 6e-2}
GPU_TARGETS = ("vulkan", "cuda")


# ----------------------------------------------------------------------------------------------
# Comparison
# ----------------------------------------------------------------------------------------------

def compare(out, ref, rtol, dtype="f32"):
    """Applies the tolerance rule of the module docstring. Returns (ok, info) where info has
    max_abs, max_rel, nbad, worst (index tuple or None), got, want, atol, rtol."""
    out = np.asarray(out)
    ref = np.asarray(ref)
    info = {"max_abs": 0.0, "max_rel": 0.0, "nbad": 0, "worst": None, "got": None,
            "want": None, "rtol": rtol, "atol": 0.0}
    if out.shape != ref.shape:
        info["error"] = "shape %s, expected %s" % (out.shape, ref.shape)
        return False, info
    if ref.size == 0:
        return True, info
    if dtype in ("i32", "i64", "i1") or ref.dtype.kind in "biu":
        bad = out.astype(np.int64) != ref.astype(np.int64)
        err = np.abs(out.astype(np.float64) - ref.astype(np.float64))
        info["max_abs"] = info["max_rel"] = float(err.max())
        info["nbad"] = int(bad.sum())
        info["rtol"] = 0.0
        if bad.any():
            w = np.unravel_index(int(np.argmax(err)), ref.shape)
            info.update(worst=w, got=out[w], want=ref[w])
        return not bad.any(), info
    rtol = max(rtol, RTOL_FLOOR.get(dtype, 0.0))
    o = out.astype(np.float64)
    r = ref.astype(np.float64)
    finite = np.isfinite(r)
    scale = max(1.0, float(np.max(np.abs(r[finite]), initial=0.0)))
    atol = rtol * scale
    with np.errstate(all="ignore"):
        err = np.abs(o - r)
        err = np.where(finite, err, np.where((np.isnan(r) & np.isnan(o)) | (r == o), 0.0, np.inf))
        err = np.where(np.isnan(err), np.inf, err)  # a NaN output where the reference is finite
        rel = err / (scale + np.abs(np.where(finite, r, 0.0)))
        bad = err > atol + rtol * np.abs(np.where(finite, r, 0.0))
    info.update(max_abs=float(err.max()), max_rel=float(rel.max()), nbad=int(bad.sum()),
                rtol=rtol, atol=atol)
    w = np.unravel_index(int(np.argmax(np.where(bad, rel, -1.0) if bad.any() else rel)), r.shape)
    info.update(worst=w, got=o[w], want=r[w])
    return not bad.any(), info


# ----------------------------------------------------------------------------------------------
# Header parsing
# ----------------------------------------------------------------------------------------------

class HeaderError(Exception):
    pass


_DEFINE_RE = re.compile(r"^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)[ \t]+(.*?)\s*(/\*.*\*/)?\s*$",
                        re.M)


def parse_header(text, name):
    """Returns {'prefix', 'abi', 'num_inputs', 'num_outputs', 'workspace', 'inputs': [...],
    'outputs': [...], 'params': [C parameter strings]} where each tensor is a dict with dtype,
    rank, shape, numel, keyed by the upper-cased tensor name."""
    macros = {}
    for m in _DEFINE_RE.finditer(text):
        macros[m.group(1)] = m.group(2).strip()
    prefix = None
    for p in (name.upper(), name):
        if p + "_WORKSPACE_SIZE" in macros:
            prefix = p
            break
    if prefix is None:
        raise HeaderError("no %s_WORKSPACE_SIZE macro" % name.upper())

    def get(key, conv=int):
        full = prefix + "_" + key
        if full not in macros:
            raise HeaderError("missing macro %s" % full)
        v = macros[full]
        try:
            return conv(v)
        except ValueError:
            raise HeaderError("macro %s has unexpected value %r" % (full, v))

    def to_int(v):
        v = v.strip().strip("()")
        v = re.sub(r"(?i)(ull|ul|ll|u|l)$", "", v)
        return int(v, 0)

    def to_shape(v):
        v = v.strip()
        if not (v.startswith("{") and v.endswith("}")):
            raise ValueError(v)
        inner = v[1:-1].strip()
        return tuple(to_int(d) for d in inner.split(",")) if inner else ()

    def to_dtype(v):
        for k, mac in DTYPE_MACROS.items():
            if v.strip("() ") == mac:
                return k
        raise ValueError(v)

    def tensors(kind):
        names = sorted(set(m.group(1) for m in re.finditer(
            r"^%s_%s_([A-Za-z0-9_]+?)_DTYPE$" % (re.escape(prefix), kind), "\n".join(macros), re.M)))
        out = {}
        for t in names:
            rank = get("%s_%s_RANK" % (kind, t), to_int)
            shape = get("%s_%s_SHAPE" % (kind, t), to_shape)
            if rank == 0:
                # C has no empty initializer list: scalars are declared with SHAPE {1}.
                if shape != (1,):
                    raise HeaderError("rank-0 %s %s has SHAPE %r, expected {1}" % (kind, t, shape))
                shape = ()
            out[t] = {"dtype": get("%s_%s_DTYPE" % (kind, t), to_dtype), "rank": rank,
                      "shape": shape, "numel": get("%s_%s_NUMEL" % (kind, t), to_int)}
        return out

    info = {
        "prefix": prefix,
        "abi": get("ABI_VERSION", to_int),
        "num_inputs": get("NUM_INPUTS", to_int),
        "num_outputs": get("NUM_OUTPUTS", to_int),
        "workspace": get("WORKSPACE_SIZE", to_int),
        "inputs": tensors("INPUT"),
        "outputs": tensors("OUTPUT"),
    }
    m = re.search(r"tlc_status\s+%s_run\s*\(([^)]*)\)\s*;" % re.escape(name), text)
    if not m:
        raise HeaderError("no declaration of 'tlc_status %s_run(...);'" % name)
    info["params"] = [" ".join(p.split()) for p in m.group(1).split(",")]
    return info


def check_header(info, prog, name, gpu=False):
    """Lists the disagreements between the parsed header and tlref's reading of the model."""
    errs = []
    if info["abi"] != 1:
        errs.append("ABI_VERSION is %d, the runtime header says 1" % info["abi"])
    want = {"INPUT": prog.inputs, "OUTPUT": prog.outputs}
    for kind, sigs in want.items():
        have = info[kind.lower() + "s"]
        count = info["num_" + kind.lower() + "s"]
        if count != len(sigs):
            errs.append("NUM_%sS is %d, expected %d" % (kind, count, len(sigs)))
        names = [s.name.upper() for s in sigs]
        extra = sorted(set(have) - set(names))
        if extra:
            errs.append("unexpected %s macros for %s" % (kind.lower(), ", ".join(extra)))
        for s in sigs:
            t = have.get(s.name.upper())
            if t is None:
                errs.append("no macros for %s %s" % (kind.lower(), s.name))
                continue
            n = int(np.prod(s.shape, dtype=np.int64))
            for field, got, exp in (("DTYPE", t["dtype"], s.dtype), ("RANK", t["rank"], len(s.shape)),
                                    ("SHAPE", tuple(t["shape"]), tuple(s.shape)),
                                    ("NUMEL", t["numel"], n)):
                if got != exp:
                    errs.append("%s_%s_%s is %s, expected %s" % (kind, s.name.upper(), field, got, exp))
    params = info["params"]
    sigs = list(prog.inputs) + list(prog.outputs)
    if gpu:
        want_params = ["tlc_gpu_model *model"] + ["tlc_gpu_buffer *%s" % s.name for s in sigs] + \
            ["tlc_gpu_buffer *workspace"]
        if params != want_params:
            errs.append("%s_run(%s), expected %s_run(%s)" % (name, ", ".join(params), name,
                                                            ", ".join(want_params)))
        return errs
    if len(params) != len(sigs) + 1:
        errs.append("%s_run has %d parameters, expected %d (inputs, outputs, workspace)" %
                    (name, len(params), len(sigs) + 1))
    else:
        for i, (p, s) in enumerate(zip(params, sigs)):
            const = i < len(prog.inputs)
            ctype = C_TYPES[s.dtype]
            pat = r"^%s%s\s*\*\s*(const\s+)?(restrict\s+|__restrict\s+)?[A-Za-z_]\w*$" % (
                r"const\s+" if const else "", re.escape(ctype))
            if not re.match(pat, p):
                errs.append("%s_run parameter %d is '%s', expected '%s%s *%s'" %
                            (name, i, p, "const " if const else "", ctype, s.name))
        if not re.match(r"^void\s*\*\s*\w+$", params[-1]):
            errs.append("%s_run's last parameter is '%s', expected 'void *workspace'" %
                        (name, params[-1]))
    return errs


# ----------------------------------------------------------------------------------------------
# Harness
# ----------------------------------------------------------------------------------------------

def c_name(stem):
    n = re.sub(r"[^A-Za-z0-9_]", "_", stem)
    if not n or n[0].isdigit():
        n = "m_" + n
    return n


# Interposes the C allocator in the harness (dynamically linked builds only) and counts the
# calls made while NAME_run runs; the same header serves test/e2e/no-malloc.test.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs",
                       "alloc_counter.h")) as _f:
    _ALLOC_COUNTER = _f.read()


# The harnesses' file and buffer helpers: buffers aligned to TLC_BUFFER_ALIGNMENT and filled
# with 0xFF bytes (NaN for floats, so unwritten elements show), raw tensor files in and out.
_C_FILE_IO = """\
static void *buffer(size_t bytes) {
  size_t n = (bytes + TLC_BUFFER_ALIGNMENT - 1) / TLC_BUFFER_ALIGNMENT * TLC_BUFFER_ALIGNMENT;
  void *p = aligned_alloc(TLC_BUFFER_ALIGNMENT, n ? n : TLC_BUFFER_ALIGNMENT);
  if (!p) { fprintf(stderr, "harness: out of memory\\n"); exit(10); }
  memset(p, 0xFF, n ? n : TLC_BUFFER_ALIGNMENT);
  return p;
}

static void *load(const char *path, size_t bytes) {
  void *p = buffer(bytes);
  FILE *f = fopen(path, "rb");
  if (!f || fread(p, 1, bytes, f) != bytes) { fprintf(stderr, "harness: cannot read %s\\n", path); exit(11); }
  fclose(f);
  return p;
}

static void store(const char *path, const void *p, size_t bytes) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, bytes, f) != bytes || fclose(f) != 0) { fprintf(stderr, "harness: cannot write %s\\n", path); exit(12); }
}
"""


def harness_source(name, prefix, prog, count_allocs=False):
    """A C program: `main` runs the model on in_<i>.bin and writes out_<i>.bin in its cwd.
    It also checks that the run leaves the inputs untouched and, with count_allocs, that it
    calls no allocator function."""
    ins, outs = list(prog.inputs), list(prog.outputs)
    L = []
    w = L.append
    w("/* Generated by run_e2e.py: runs model %s on in_*.bin, writes out_*.bin. */" % name)
    w("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <tlc/runtime.h>")
    w('#include "%s.h"\n' % name)
    if count_allocs:
        w(_ALLOC_COUNTER)
    else:
        w("static int counting;\nstatic long alloc_calls;\n")
    w(_C_FILE_IO)
    w("static void check_size(const char *what, size_t got, size_t want) {")
    w('  if (got != want) { fprintf(stderr, "harness: %s is %zu bytes per the header, expected %zu\\n", what, got, want); exit(13); }')
    w("}\n")
    w("int main(void) {")
    w("  tlc_status st = tlc_check_abi(%s_ABI_VERSION);" % prefix)
    w('  if (st != TLC_STATUS_OK) { fprintf(stderr, "harness: tlc_check_abi: %s\\n", tlc_status_string(st)); return 2; }')
    args, args2, nul = [], [], []
    for i, s in enumerate(ins):
        mac = "%s_INPUT_%s" % (prefix, s.name.upper())
        nbytes = int(np.prod(s.shape, dtype=np.int64)) * np.dtype(tlref.numpy_dtype(s.dtype)).itemsize
        w("  size_t in%d_bytes = (size_t)%s_NUMEL * tlc_dtype_size(%s_DTYPE);" % (i, mac, mac))
        w('  check_size("input %s", in%d_bytes, %d);' % (s.name, i, nbytes))
        w('  void *in%d = load("in_%d.bin", in%d_bytes);' % (i, i, i))
        args.append("in%d" % i)
        args2.append("in%d" % i)
        nul.append(("in%d" % i, s))
    for i, s in enumerate(outs):
        mac = "%s_OUTPUT_%s" % (prefix, s.name.upper())
        nbytes = int(np.prod(s.shape, dtype=np.int64)) * np.dtype(tlref.numpy_dtype(s.dtype)).itemsize
        w("  size_t out%d_bytes = (size_t)%s_NUMEL * tlc_dtype_size(%s_DTYPE);" % (i, mac, mac))
        w('  check_size("output %s", out%d_bytes, %d);' % (s.name, i, nbytes))
        w("  void *out%d = buffer(out%d_bytes);" % (i, i))
        w("  void *again%d = buffer(out%d_bytes);" % (i, i))
        args.append("out%d" % i)
        args2.append("again%d" % i)
        nul.append(("again%d" % i, s))
    w("  void *ws = NULL;")
    w("  st = tlc_workspace_alloc(NULL, %s_WORKSPACE_SIZE, &ws);" % prefix)
    w('  if (st != TLC_STATUS_OK) { fprintf(stderr, "harness: tlc_workspace_alloc(%%zu): %%s\\n", (size_t)%s_WORKSPACE_SIZE, tlc_status_string(st)); return 2; }' % prefix)
    for i in range(len(ins)):
        w("  void *orig%d = buffer(in%d_bytes);\n  memcpy(orig%d, in%d, in%d_bytes);" % (i, i, i, i, i))
    # The runtime creates its default thread pool on first use (one-time set-up, not part of a
    # run); create it before counting so every call below must allocate nothing.
    w("  (void)tlc_thread_pool_default();")
    for label, a in (("first", args), ("second", args2)):
        w("  counting = 1;")
        w("  st = %s_run(%s);" % (name, ", ".join(a + ["ws"])))
        w("  counting = 0;")
        w('  if (alloc_calls) { fprintf(stderr, "harness: %s %s_run made %%ld allocator calls\\n", alloc_calls); return 6; }' % (label, name))
        w('  if (st != TLC_STATUS_OK) { fprintf(stderr, "harness: %s %s_run returned %%d (%%s)\\n", (int)st, tlc_status_string(st)); return 3; }' % (label, name))
    for i, s in enumerate(ins):
        w('  if (memcmp(orig%d, in%d, in%d_bytes) != 0) { fprintf(stderr, "harness: %s_run wrote into input %s\\n"); return 7; }' % (i, i, i, name, s.name))
    for i, s in enumerate(outs):
        w('  if (memcmp(out%d, again%d, out%d_bytes) != 0) { fprintf(stderr, "harness: output %s differs between two identical calls\\n"); return 4; }' % (i, i, i, s.name))
    # NULL for each non-empty buffer in turn (an empty one may be NULL), through one call site
    # so that a model with many buffers gets a harness of linear size.
    checked = [i for i, (_, s) in enumerate(nul) if int(np.prod(s.shape, dtype=np.int64)) > 0]
    if checked:
        w("  {")
        w("    void *arg[] = {%s};" % ", ".join(a for a, _ in nul))
        w("    static const char *const arg_name[] = {%s};" % ", ".join('"%s"' % s.name for _, s in nul))
        w("    static const int checked[] = {%s};" % ", ".join(map(str, checked)))
        w("    for (size_t c = 0; c < sizeof checked / sizeof *checked; ++c) {")
        w("      void *saved = arg[checked[c]];")
        w("      arg[checked[c]] = NULL;")
        w("      st = %s_run(%s);" % (name, ", ".join(["arg[%d]" % i for i in range(len(nul))] + ["ws"])))
        w("      arg[checked[c]] = saved;")
        w('      if (st != TLC_STATUS_INVALID_ARGUMENT) { fprintf(stderr, "harness: %s_run with NULL for %%s returned %%d (%%s), expected TLC_STATUS_INVALID_ARGUMENT\\n", arg_name[checked[c]], (int)st, tlc_status_string(st)); return 5; }' % name)
        w("    }")
        w("  }")
    for i in range(len(outs)):
        w('  store("out_%d.bin", out%d, out%d_bytes);' % (i, i, i))
    w("  tlc_workspace_free(NULL, ws);")
    w("  return 0;\n}")
    return "\n".join(L) + "\n"


def gpu_harness_source(name, prefix, prog):
    """A C program for a GPU-compiled model: opens the device of the model's backend, uploads
    in_<i>.bin, runs NAME_run twice (outputs refilled with 0xFF bytes before each, so unwritten
    elements show up as NaN; both results must be bitwise equal), checks that a NULL input is
    rejected, downloads out_<i>.bin. No device: exit 20 with the runtime's reason."""
    ins, outs = list(prog.inputs), list(prog.outputs)
    L = []
    w = L.append
    w("/* Generated by run_e2e.py: runs GPU model %s on in_*.bin, writes out_*.bin. */" % name)
    w("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <tlc/gpu.h>")
    w('#include "%s.h"\n' % name)
    w("static tlc_gpu_context *ctx;")
    w("static void fail(const char *what, tlc_status st) {")
    w('  fprintf(stderr, "harness: %s: %s (%s)\\n", what, tlc_status_string(st), ctx ? tlc_gpu_last_error(ctx) : "");')
    w("  exit(3);\n}\n")
    w(_C_FILE_IO)
    w("static tlc_gpu_buffer *device(const void *data, size_t bytes) {")
    w("  tlc_gpu_buffer *b = NULL;")
    w("  tlc_status st = tlc_gpu_buffer_create(ctx, bytes, &b);")
    w('  if (st != TLC_STATUS_OK) fail("tlc_gpu_buffer_create", st);')
    w("  if (data && bytes && (st = tlc_gpu_buffer_upload(ctx, b, 0, data, bytes)) != TLC_STATUS_OK)")
    w('    fail("tlc_gpu_buffer_upload", st);')
    w("  return b;\n}\n")
    w("int main(void) {")
    w("  char message[1024];")
    w("  tlc_status st = tlc_gpu_context_create(%s_GPU_BACKEND, 0, &ctx, message, sizeof message);" % prefix)
    w('  if (st != TLC_STATUS_OK) { fprintf(stderr, "harness: no GPU device: %s\\n", message); return 20; }')
    w("  tlc_gpu_model *model = NULL;")
    w("  if ((st = %s_init(ctx, &model)) != TLC_STATUS_OK) fail(\"%s_init\", st);" % (name, name))
    args, nul = [], []
    for i, s in enumerate(ins):
        mac = "%s_INPUT_%s" % (prefix, s.name.upper())
        w("  size_t in%d_bytes = (size_t)%s_NUMEL * tlc_dtype_size(%s_DTYPE);" % (i, mac, mac))
        w('  tlc_gpu_buffer *in%d = device(load("in_%d.bin", in%d_bytes), in%d_bytes);' % (i, i, i, i))
        args.append("in%d" % i)
        nul.append("NULL" if i == 0 else "in%d" % i)
    for i, s in enumerate(outs):
        mac = "%s_OUTPUT_%s" % (prefix, s.name.upper())
        w("  size_t out%d_bytes = (size_t)%s_NUMEL * tlc_dtype_size(%s_DTYPE);" % (i, mac, mac))
        w("  void *nan%d = buffer(out%d_bytes), *first%d = buffer(out%d_bytes), *second%d = buffer(out%d_bytes);" % ((i,) * 6))
        w("  tlc_gpu_buffer *out%d = device(NULL, out%d_bytes);" % (i, i))
        args.append("out%d" % i)
        nul.append("out%d" % i)
    w("  tlc_gpu_buffer *ws = %s_WORKSPACE_SIZE ? device(NULL, %s_WORKSPACE_SIZE) : NULL;" % (prefix, prefix))
    for label in ("first", "second"):
        for i in range(len(outs)):
            w("  if ((st = tlc_gpu_buffer_upload(ctx, out%d, 0, nan%d, out%d_bytes)) != TLC_STATUS_OK) fail(\"upload\", st);" % (i, i, i))
        w("  if ((st = %s_run(%s)) != TLC_STATUS_OK) fail(\"%s %s_run\", st);" % (name, ", ".join(["model"] + args + ["ws"]), label, name))
        for i in range(len(outs)):
            w("  if ((st = tlc_gpu_buffer_download(ctx, out%d, 0, %s%d, out%d_bytes)) != TLC_STATUS_OK) fail(\"download\", st);" % (i, label, i, i))
    for i, s in enumerate(outs):
        w('  if (memcmp(first%d, second%d, out%d_bytes) != 0) { fprintf(stderr, "harness: output %s differs between two identical calls\\n"); return 4; }' % (i, i, i, s.name))
    if ins:
        w("  st = %s_run(%s);" % (name, ", ".join(["model"] + nul + ["ws"])))
        w('  if (st != TLC_STATUS_INVALID_ARGUMENT) { fprintf(stderr, "harness: %s_run with a NULL input returned %%d (%%s), expected TLC_STATUS_INVALID_ARGUMENT\\n", (int)st, tlc_status_string(st)); return 5; }' % name)
    for i in range(len(outs)):
        w('  store("out_%d.bin", first%d, out%d_bytes);' % (i, i, i))
    # TLC_E2E_TIME=N: N more runs, each waited for, and the median device time (GPU timestamps).
    w('  const char *timed = getenv("TLC_E2E_TIME");')
    w("  int runs = timed ? atoi(timed) : 0;")
    w("  if (runs > 0) {")
    w("    double *ms = malloc(sizeof(double) * (size_t)runs);")
    w("    for (int r = 0; r < runs; ++r) {")
    w("      if ((st = %s_run(%s)) != TLC_STATUS_OK) fail(\"timed %s_run\", st);" % (name, ", ".join(["model"] + args + ["ws"]), name))
    w("      ms[r] = tlc_gpu_model_last_run_ms(model);")
    w("      for (int j = r; j > 0 && ms[j] < ms[j - 1]; --j) { double t = ms[j]; ms[j] = ms[j - 1]; ms[j - 1] = t; }")
    w("    }")
    w('    printf("time %s device_ms_median=%%.4f min=%%.4f runs=%%d\\n", ms[runs / 2], ms[0], runs);' % name)
    w("    free(ms);")
    w("  }")
    w("  %s_release(model);" % name)
    for a in args:
        w("  tlc_gpu_buffer_destroy(ctx, %s);" % a)
    w("  tlc_gpu_buffer_destroy(ctx, ws);")
    w("  tlc_gpu_context_destroy(ctx);")
    w("  return 0;\n}")
    return "\n".join(L) + "\n"


# ----------------------------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------------------------

class Failure(Exception):
    def __init__(self, what, detail=""):
        super().__init__(what)
        self.what = what
        self.detail = detail


def _run(cmd, cwd=None, timeout=600, what="command", env=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:
        raise Failure("%s timed out after %ds" % (what, timeout),
                      (e.stderr or b"").decode(errors="replace"))
    except OSError as e:
        raise Failure("%s could not start: %s" % (what, e), " ".join(cmd))
    if p.returncode != 0:
        if p.returncode < 0:
            try:
                sig = signal.Signals(-p.returncode).name
            except ValueError:
                sig = "signal %d" % -p.returncode
            status = "crashed with %s" % sig
        elif p.returncode >= 128 + 1 and p.returncode <= 128 + 64:
            status = "exited with %d (signal %d?)" % (p.returncode, p.returncode - 128)
        else:
            status = "exited with %d" % p.returncode
        detail = "$ " + " ".join(cmd) + "\n" + (p.stderr.decode(errors="replace") +
                                                 p.stdout.decode(errors="replace")).rstrip()
        raise Failure("%s %s" % (what, status), detail)
    return p


class Toolchain:
    def __init__(self, args, workdir):
        self.args = args
        if args.target == "aarch64":
            self.cc = args.cc or "aarch64-linux-gnu-gcc"
            self.ldflags = ["-static"]
            self.runner = ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"]
        else:
            self.cc = args.cc or os.environ.get("CC", "cc")
            self.ldflags = []
            self.runner = []
        self.cflags = ["-O2", "-I", args.include]
        self.runtime = None
        self.workdir = workdir

    def runtime_objects(self):
        """Compiles the runtime sources once per invocation (or uses --runtime-lib)."""
        if self.runtime is not None:
            return self.runtime
        if self.args.runtime_lib:
            self.runtime = [self.args.runtime_lib]
            return self.runtime
        srcs = sorted(glob.glob(os.path.join(self.args.runtime_src, "*.c")))
        if not srcs:
            raise Failure("no runtime sources in %s" % self.args.runtime_src)
        d = os.path.join(self.workdir, "runtime")
        os.makedirs(d, exist_ok=True)
        objs = []
        # As runtime/CMakeLists.txt builds it: the Vulkan launcher where the headers are.
        defines = ["-DTLC_GPU_HAVE_VULKAN=1"] if os.path.exists("/usr/include/vulkan/vulkan.h") \
            and self.args.target != "aarch64" else []
        for s in srcs:
            o = os.path.join(d, os.path.basename(s)[:-2] + ".o")
            _run([self.cc] + self.cflags + defines + ["-std=gnu11", "-I", self.args.runtime_src, "-c", s,
                                            "-o", o], what="compiling the runtime (%s)" %
                 os.path.basename(s))
            objs.append(o)
        self.runtime = objs
        return objs

    def link(self, cwd, sources, out):
        cmd = [self.cc] + self.cflags + ["-I", cwd] + sources + self.runtime_objects() + \
            ["-o", out] + self.ldflags + ["-lm", "-lpthread", "-ldl"]
        _run(cmd, cwd=cwd, what="linking the harness")

    def execute(self, exe, cwd, timeout, env=None):
        return _run(self.runner + [exe], cwd=cwd, timeout=timeout, what="the harness", env=env)


def run_model(model, args, tc, workroot):
    """Runs one model; returns a list of (ok, line) and writes artifacts under workroot."""
    stem = os.path.splitext(os.path.basename(model))[0]
    name = args.name or c_name(stem)
    d = os.path.join(workroot, c_name(stem))
    os.makedirs(d, exist_ok=True)
    try:
        prog = tlref.parse(model)
    except (tlref.TlError, OSError) as e:
        raise Failure("tlref rejects the model", str(e))
    obj, hdr = os.path.join(d, name + ".o"), os.path.join(d, name + ".h")
    if args.prebuilt_object:
        shutil.copy(args.prebuilt_object, obj)
        shutil.copy(args.prebuilt_header, hdr)
    else:
        cmd = [args.tlc, model, "-o", obj, "--header", hdr, "--name", name]
        if args.target:
            cmd += ["--target", args.target]
        if args.cpu:
            cmd += ["--cpu", args.cpu]
        cmd += args.tlc_flag
        _run(cmd, timeout=args.timeout, what="tlc")
        for f in (obj, hdr):
            if not os.path.exists(f):
                raise Failure("tlc succeeded but wrote no %s" % os.path.basename(f))
    with open(hdr) as f:
        htext = f.read()
    try:
        info = parse_header(htext, name)
    except HeaderError as e:
        raise Failure("bad header %s.h: %s" % (name, e))
    gpu = args.target in GPU_TARGETS
    errs = check_header(info, prog, name, gpu)
    if errs:
        raise Failure("header %s.h disagrees with the model" % name, "\n".join(errs))

    inputs = tlref.random_inputs(prog.inputs, args.seed)
    for i, s in enumerate(prog.inputs):
        tlref.to_buffer(s.dtype, inputs[s.name]).tofile(os.path.join(d, "in_%d.bin" % i))
    with open(os.path.join(d, "main.c"), "w") as f:
        f.write(gpu_harness_source(name, info["prefix"], prog) if gpu else
                harness_source(name, info["prefix"], prog, count_allocs=not tc.ldflags))
    exe = os.path.join(d, "harness")
    tc.link(d, ["main.c", obj], exe)
    ref = tlref.evaluate(model, inputs)
    if args.prepare_only:
        return prepare(prog, name, d, ref, args.rtol)
    if not args.cpu_variants:
        tc.execute(exe, d, args.timeout)
        return compare_outputs(prog, name, d, ref, args.rtol)
    results = []
    for variant in args.cpu_variants.split(","):
        env = dict(os.environ, TLC_CPU_VERBOSE="1")
        env.pop("TLC_CPU_VARIANT", None)
        if variant != "auto":
            env["TLC_CPU_VARIANT"] = variant
        for i in range(len(prog.outputs)):  # no stale outputs from the previous run
            if os.path.exists(os.path.join(d, "out_%d.bin" % i)):
                os.remove(os.path.join(d, "out_%d.bin" % i))
        try:
            p = tc.execute(exe, d, args.timeout, env=env)
        except Failure as f:
            results.append((False, "FAIL %s [%s]: %s\n    %s" % (name, variant, f.what,
                                                                 f.detail.replace("\n", "\n    "))))
            continue
        ran = ran_variant(p.stderr.decode(errors="replace"), name)
        if ran is None or (variant != "auto" and ran != variant):
            results.append((False, "FAIL %s [%s]: the runtime reports running %s" %
                            (name, variant, ran or "no variant")))
            continue
        results += compare_outputs(prog, name, d, ref, args.rtol,
                                   "[%s] " % (ran if variant != "auto" else "auto: " + ran))
    return results


def prepare(prog, name, d, ref, rtol):
    """--prepare-only: keeps the linked harness, its inputs and the references (ref_*.npy) in
    `d` with prepared.json, for --run-prepared on another machine (a GPU one)."""
    outputs = []
    for s in prog.outputs:
        np.save(os.path.join(d, "ref_%s.npy" % s.name), ref[s.name])
        outputs.append({"name": s.name, "dtype": s.dtype, "shape": list(s.shape)})
    with open(os.path.join(d, "prepared.json"), "w") as f:
        json.dump({"name": name, "outputs": outputs, "rtol": rtol}, f)
    return [(True, "PREPARED %s" % name)]


def run_prepared(root, timeout):
    """--run-prepared: runs every harness --prepare-only left under `root` (sorted) and compares
    its outputs with the saved references; harness stdout lines (timings) are echoed."""
    failed = n = 0
    for d in sorted(os.path.dirname(p) for p in glob.glob(os.path.join(root, "*", "prepared.json"))):
        with open(os.path.join(d, "prepared.json")) as f:
            meta = json.load(f)
        n += 1
        outs = [argparse.Namespace(name=o["name"], dtype=o["dtype"], shape=tuple(o["shape"]))
                for o in meta["outputs"]]
        ref = {o.name: np.load(os.path.join(d, "ref_%s.npy" % o.name)) for o in outs}
        try:
            p = _run([os.path.join(d, "harness")], cwd=d, timeout=timeout, what="the harness",
                     env=dict(os.environ))
            for line in p.stdout.decode(errors="replace").splitlines():
                if line.startswith("time "):
                    print(line, flush=True)
            with np.errstate(all="ignore"):
                results = compare_outputs(argparse.Namespace(outputs=outs), meta["name"], d, ref,
                                          meta["rtol"])
        except Failure as f:
            results = [(False, "FAIL %s: %s\n    %s" % (meta["name"], f.what,
                                                     f.detail.replace("\n", "\n    ")))]
        for _, line in results:
            print(line, flush=True)
        failed += not all(ok for ok, _ in results)
    if n == 0:
        print("FAILED: nothing prepared under %s" % root)
        return 1
    print("FAILED (%d of %d models)" % (failed, n) if failed else "ALL PASSED (%d models)" % n)
    return 1 if failed else 0


def ran_variant(stderr, name):
    """The variant the runtime's TLC_CPU_VERBOSE report says model `name` ran, or None."""
    m = re.search(r"^tlc: %s: running the (\S+) variant" % re.escape(name), stderr, re.M)
    return m.group(1) if m else None


def compare_outputs(prog, name, d, ref, rtol, tag=""):
    """Compares the harness's output files in `d` with the reference; (ok, line) per output."""
    results = []
    for i, s in enumerate(prog.outputs):
        raw = np.fromfile(os.path.join(d, "out_%d.bin" % i), dtype=tlref.numpy_dtype(s.dtype))
        if raw.size != int(np.prod(s.shape, dtype=np.int64)):
            results.append((False, "FAIL %s/%s: output file has %d elements, expected %s" %
                            (name, s.name, raw.size, s.shape)))
            continue
        got = tlref.from_buffer(s.dtype, raw.reshape(s.shape))
        want = ref[s.name]
        np.save(os.path.join(d, "out_%s.npy" % s.name), got)
        np.save(os.path.join(d, "ref_%s.npy" % s.name), want)
        ok, inf = compare(got, want, rtol, s.dtype)
        stats = tag + "max_abs_err=%.3g max_rel_err=%.3g" % (inf["max_abs"], inf["max_rel"])
        if ok:
            results.append((True, "PASS %s/%s %s" % (name, s.name, stats)))
        else:
            idx = "[" + ", ".join(str(int(k)) for k in inf["worst"]) + "]" \
                if inf["worst"] is not None else "-"
            results.append((False, "FAIL %s/%s %s: %d of %d elements outside |out-ref| <= "
                            "%.3g + %.3g*|ref|; worst at %s: got %r, expected %r" %
                            (name, s.name, stats, inf["nbad"], want.size, inf["atol"],
                             inf["rtol"], idx, _num(inf["got"]), _num(inf["want"]))))
    return results


def _num(v):
    if v is None:
        return None
    v = v.item() if hasattr(v, "item") else v
    return float("%.9g" % v) if isinstance(v, float) else v


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="*", metavar="MODEL.tl")
    ap.add_argument("--prepare-only", action="store_true",
                    help="compile and link, keep harness + inputs + references in --keep, "
                    "do not run (for --run-prepared elsewhere, e.g. on a GPU machine)")
    ap.add_argument("--run-prepared", metavar="DIR",
                    help="run what --prepare-only left in DIR and compare (needs only numpy)")
    ap.add_argument("--tlc", help="the tlc driver")
    rt = ap.add_mutually_exclusive_group()
    rt.add_argument("--runtime-src", help="folder of the runtime's C sources (compiled in)")
    rt.add_argument("--runtime-lib", help="a built runtime library (libtlcrt.a)")
    ap.add_argument("--include", help="runtime include folder (has tlc/runtime.h)")
    ap.add_argument("--target", choices=["x86_64", "aarch64"] + list(GPU_TARGETS))
    ap.add_argument("--tlc-flag", action="append", default=[],
                    help="an extra tlc flag, e.g. --einsum-path=greedy (repeatable)")
    ap.add_argument("--cpu", help="tlc's --cpu (one cpu, or a list for run-time dispatch)")
    ap.add_argument("--cpu-variants", help="run once per listed TLC_CPU_VARIANT value "
                    "('auto': unset) and check the runtime ran that variant")
    ap.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    ap.add_argument("--rtol", type=float, default=1e-5)
    ap.add_argument("--cc", help="C compiler for the harness (default cc, or "
                    "aarch64-linux-gnu-gcc for --target aarch64)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per step")
    ap.add_argument("--keep", help="keep the work files (sources, inputs, outputs as .npy) here")
    # Testing the test: use a hand-made object/header instead of running tlc.
    ap.add_argument("--prebuilt-object", help=argparse.SUPPRESS)
    ap.add_argument("--prebuilt-header", help=argparse.SUPPRESS)
    ap.add_argument("--name", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.run_prepared:
        return run_prepared(args.run_prepared, args.timeout)
    if not args.models:
        ap.error("give at least one MODEL.tl")
    if not (args.runtime_src or args.runtime_lib) or not args.include:
        ap.error("--runtime-src or --runtime-lib, and --include, are required")
    if args.prepare_only and not args.keep:
        ap.error("--prepare-only needs --keep DIR")
    if bool(args.prebuilt_object) != bool(args.prebuilt_header):
        ap.error("--prebuilt-object and --prebuilt-header go together")
    if args.prebuilt_object and len(args.models) != 1:
        ap.error("--prebuilt-object takes exactly one model")
    if not args.prebuilt_object and not args.tlc:
        ap.error("--tlc is required")

    workroot = args.keep or tempfile.mkdtemp(prefix="tlc-e2e-")
    os.makedirs(workroot, exist_ok=True)
    tc = Toolchain(args, workroot)
    failed = 0
    try:
        for model in args.models:
            name = args.name or c_name(os.path.splitext(os.path.basename(model))[0])
            try:
                with np.errstate(all="ignore"):
                    results = run_model(model, args, tc, workroot)
            except Failure as f:
                results = [(False, "FAIL %s: %s%s" % (name, f.what, "\n" + "\n".join(
                    "    " + l for l in f.detail.splitlines()) if f.detail else ""))]
            for _, line in results:
                print(line, flush=True)
            if not all(ok for ok, _ in results):
                failed += 1
    finally:
        if not args.keep:
            shutil.rmtree(workroot, ignore_errors=True)
    n = len(args.models)
    if failed:
        print("FAILED (%d of %d models)" % (failed, n))
        return 1
    print("ALL PASSED (%d models)" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
