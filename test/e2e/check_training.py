#!/usr/bin/python3
"""Training steps compiled by tlc (`train LOSS with OPTIMIZER(...)`) against PyTorch: an MLP
classifier (tanh hidden layer, cross-entropy with integer labels) takes 50 steps of each
optimizer, on a fresh random batch per step and a decaying learning rate passed at run time,
and its loss at every step and its parameters after the last one must match PyTorch's
(torch.autograd + torch.optim, float64, from the same initial values) within --rtol of their
largest magnitude. Lion, which torch 1.13 lacks, is checked against the update rule of Chen et
al. (2023) as reference_optimizers.Lion writes it, with torch.autograd gradients. With --runtime-lib, the same run goes
through the C training ABI too (NAME_init_state, NAME_train_step on one state buffer, from a
C program linking the object and libtlcrt). Prints `PASS training <optimizer>` or FAIL lines."""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
from reference_optimizers import Lion
from train_harness import train_through_c_abi

STEPS = 50
B, I, H, C = 16, 8, 16, 4

PROGRAM = """input x : f32[%d, %d]
input labels : i64[%d]
param w1 : f32[%d, %d] = load("w1.npy")
param b1 : f32[%d] = load("b1.npy")
param w2 : f32[%d, %d] = load("w2.npy")
logits = einsum("bi,ij->bj", tanh(einsum("bi,ij->bj", x, w1) + b1), w2)
loss = cross_entropy(logits, labels)
output loss
train loss with %%s
""" % (B, I, B, I, H, H, H, C)

# (name, tl optimizer call, torch optimizer factory)
CASES = [
    ("sgd", "sgd()", lambda p: torch.optim.SGD(p, lr=1.0)),
    ("sgd-momentum-dampening-decay", "sgd(momentum=0.9, dampening=0.1, weight_decay=0.01)",
     lambda p: torch.optim.SGD(p, lr=1.0, momentum=0.9, dampening=0.1, weight_decay=0.01)),
    ("sgd-nesterov", "sgd(momentum=0.8, nesterov=true)",
     lambda p: torch.optim.SGD(p, lr=1.0, momentum=0.8, nesterov=True)),
    ("adam-l2", "adam(beta1=0.8, beta2=0.99, eps=1e-6, weight_decay=0.05)",
     lambda p: torch.optim.Adam(p, lr=1.0, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.05)),
    ("adamw", "adamw(weight_decay=0.1)",
     lambda p: torch.optim.AdamW(p, lr=1.0, weight_decay=0.1)),
    ("lion", "lion(beta1=0.9, beta2=0.99, weight_decay=0.1)",
     lambda p: Lion(p, lr=1.0, betas=(0.9, 0.99), weight_decay=0.1)),
    # f64 parameters and data: lr and step stay f32 inputs, cast to the parameters' type.
    ("adamw-f64", "adamw(weight_decay=0.1)",
     lambda p: torch.optim.AdamW(p, lr=1.0, weight_decay=0.1)),
]


def lr_at(t, name):
    base = 0.3 if name.startswith("sgd") else (3e-4 if name == "lion" else 0.01)
    return base * (1.0 - 0.5 * t / STEPS)


def data(rng):
    return [(rng.standard_normal((B, I)).astype(np.float32),
             rng.integers(0, C, B).astype(np.int64)) for _ in range(STEPS)]


def mlp_loss(w1, b1, w2, x, y):
    """The program's loss of the float64 params on one batch (x, labels), as a torch scalar."""
    logits = torch.tanh(torch.tensor(x, dtype=torch.float64) @ w1 + b1) @ w2
    return torch.nn.functional.cross_entropy(logits, torch.tensor(y))


def reference(init, batches, name, factory):
    params = [torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in init]
    opt = factory(params)
    losses = []
    for t, (x, y) in enumerate(batches):
        w1, b1, w2 = params
        loss = mlp_loss(w1, b1, w2, x, y)
        for p in params:
            p.grad = None
        loss.backward()
        losses.append(loss.item())
        lr = float(np.float32(lr_at(t, name)))  # as the f32 lr input carries it
        for group in opt.param_groups:
            group["lr"] = lr
        opt.step()
    return np.array(losses), [p.detach().numpy() for p in params]


def write_program(tmp, init, call):
    """g.tl with `train loss with CALL` and its initial params as .npy files (f32, or f64 when
    they are); returns its path."""
    tl = os.path.join(tmp, "g.tl")
    for n, v in zip(("w1", "b1", "w2"), init):
        np.save(os.path.join(tmp, n + ".npy"), v)
    program = PROGRAM % call
    if init[0].dtype == np.float64:
        program = program.replace("f32", "f64")
    with open(tl, "w") as f:
        f.write(program)
    return tl


def run_tlc(args, tmp, init, batches, name, call):
    tl = write_program(tmp, init, call)
    so = os.path.join(tmp, "g.so")
    subprocess.run([args.tlc, tl, "--cpu=" + args.cpu, "--shared", "-o", so], check=True)
    slots = {"sgd": [], "adam": ["exp_avg", "exp_avg_sq"], "adamw": ["exp_avg", "exp_avg_sq"],
             "lion": ["exp_avg"]}[call.split("(")[0]]
    if call.startswith("sgd(momentum"):
        slots = ["momentum_buffer"]
    state = {}
    for n, v in zip(("w1", "b1", "w2"), init):
        state[n] = v
        for s in slots:
            state[n + "_" + s] = np.zeros_like(v)
    order = [n2 for n in ("w1", "b1", "w2") for n2 in [n] + [n + "_" + s for s in slots]]
    losses = []
    for t, (x, y) in enumerate(batches):
        feeds = [x, y, np.array(lr_at(t, name), np.float32), np.array(t + 1, np.float32)]
        feeds += [state[n] for n in order]
        cmd = [args.tlc_run, so, "--name", "g_train"]
        for i, v in enumerate(feeds):
            path = os.path.join(tmp, "in%d.npy" % i)
            np.save(path, v)
            cmd += ["--input", path]
        out = os.path.join(tmp, "out")
        os.makedirs(out, exist_ok=True)
        subprocess.run(cmd + ["--save-outputs", out, "--quiet"], check=True, stdout=subprocess.DEVNULL)
        losses.append(float(np.load(os.path.join(out, "loss.npy"))))
        for n in order:
            state[n] = np.load(os.path.join(out, n + "_next.npy"))
    return np.array(losses), [state[n] for n in ("w1", "b1", "w2")], None


def run_c_abi(args, tmp, init, batches, name, call):
    """The same training through the C ABI; returns the losses and the final params."""
    tl = write_program(tmp, init, call)
    subprocess.run([args.tlc, tl, "--cpu=" + args.cpu, "-o", os.path.join(tmp, "g.o"), "--header",
                    os.path.join(tmp, "g.h")], check=True)
    # g_run, the inference from the trained state: the program's only output is the loss, so
    # it evaluates the loss (of x and labels) without updating anything.
    infer = {"inputs": ["x", "labels"], "outputs": ["loss"]}
    losses, state = train_through_c_abi(args, tmp, "g", batches,
                                        [lr_at(t, name) for t in range(STEPS)], infer=infer)
    return (losses, [state[n].reshape(v.shape) for n, v in zip(("w1", "b1", "w2"), init)],
            float(infer["got"]["loss"][0]))


def loss_of(params, batch):
    """The model's loss on `batch` with `params`, in float64."""
    return mlp_loss(*[torch.tensor(p, dtype=torch.float64) for p in params], *batch).item()


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tlc", required=True)
    ap.add_argument("--tlc-run", required=True)
    ap.add_argument("--cpu", default="x86-64-v3")
    ap.add_argument("--rtol", type=float, default=1e-4)
    ap.add_argument("--runtime-lib", help="libtlcrt.a: also train through the C ABI")
    ap.add_argument("--include", help="the runtime's include folder (with --runtime-lib)")
    ap.add_argument("--cc", default="cc", help="the C compiler command (may carry flags)")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(42)
    init = [(rng.standard_normal((I, H)) * 0.5).astype(np.float32),
            (rng.standard_normal(H) * 0.1).astype(np.float32),
            (rng.standard_normal((H, C)) * 0.5).astype(np.float32)]
    batches = data(rng)
    failed = 0
    runs = [(name, call, factory, run_tlc) for name, call, factory in CASES]
    if args.runtime_lib:
        runs += [(name, call, factory, run_c_abi) for name, call, factory in CASES
                 if name in ("sgd-nesterov", "adamw")]
    for name, call, factory, runner in runs:
        f64 = name.endswith("-f64")
        start = [v.astype(np.float64) for v in init] if f64 else init
        feed = [(x.astype(np.float64), y) for x, y in batches] if f64 else batches
        ref_losses, ref_params = reference(start, feed, name, factory)
        with tempfile.TemporaryDirectory() as tmp:
            losses, params, infer_loss = runner(args, tmp, start, feed, name, call)
        if runner is run_c_abi:
            name += " (C ABI)"
        errs = [float(np.max(np.abs(losses - ref_losses)) / np.max(np.abs(ref_losses)))]
        errs += [float(np.max(np.abs(p - r)) / np.max(np.abs(r))) for p, r in zip(params, ref_params)]
        if infer_loss is not None:
            want = loss_of(ref_params, feed[-1])
            err = abs(infer_loss - want) / abs(want)
            errs.append(err)
            print("%s training %s: g_run from the trained state, loss %.6f vs %.6f (rel %.2g)"
                  % ("PASS" if err <= args.rtol else "FAIL", name, infer_loss, want, err))
        moved = float(np.max(np.abs(ref_params[0] - init[0])))
        worst = max(errs)
        # In f64 only the order of sums differs.
        if worst > (1e-9 if f64 else args.rtol) or not np.all(np.isfinite(losses)):
            failed += 1
            print("FAIL training %s: relative errors loss %.3g, w1 %.3g, b1 %.3g, w2 %.3g%s"
                  % ((name,) + tuple(errs[:4]) + (", g_run %.3g" % errs[4] if len(errs) > 4 else "",)))
        else:
            print("PASS training %s (loss %.4f -> %.4f, w1 moved %.3g, max relative error %.2g)"
                  % (name, ref_losses[0], ref_losses[-1], moved, worst))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
