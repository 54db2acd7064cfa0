#!/usr/bin/python3
"""`tlc model.onnx --train`: a small CNN (two convolutions, batch norm, ReLU, max and average
pooling, a linear layer) exported from PyTorch for training takes 50 training steps in a C program through the training
ABI (NAME_init_state, NAME_train_step; the initializers become the trained parameters), on a
fresh random batch per step; its loss at every step and its parameters after the last one must
match PyTorch training the same module in train mode (batch norm on the batch's statistics;
torch.autograd + torch.optim, float64) within --rtol of their largest magnitude, and so must
batch norm's running statistics (kept in the training state) and the logits NAME_run (the
inference from the trained state, batch norm on the running statistics as in torch's eval mode)
computes for the last batch. Prints
`PASS onnx-training <optimizer>` or FAIL lines."""
import copy
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import onnx.numpy_helper
import torch
from reference_optimizers import Lion
from train_harness import harness_arguments, train_through_c_abi

STEPS, B, C, H, W, CLASSES = 50, 8, 3, 12, 12, 5


class CNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        # No bias before batch norm: its gradient is exactly zero, and Adam turns the roundoff
        # of a zero gradient (1e-9 in float32 against 1e-17 in float64) into steps of ~lr.
        self.conv1 = torch.nn.Conv2d(C, 6, 3, padding=1, bias=False)
        self.bn1 = torch.nn.BatchNorm2d(6)
        self.conv2 = torch.nn.Conv2d(6, 8, 3, stride=2, padding=1, groups=2)
        self.fc = torch.nn.Linear(8 * 3 * 3, CLASSES)

    def forward(self, x):
        x = torch.nn.functional.max_pool2d(torch.relu(self.bn1(self.conv1(x))), 2)
        x = torch.nn.functional.avg_pool2d(torch.relu(self.conv2(x)), 1)
        return self.fc(torch.flatten(x, 1))


CASES = [
    ("sgd-momentum", "sgd(momentum=0.9, weight_decay=0.001)", 0.05,
     lambda p, lr: torch.optim.SGD(p, lr=lr, momentum=0.9, weight_decay=0.001)),
    ("adamw", "adamw(weight_decay=0.01)", 0.003,
     lambda p, lr: torch.optim.AdamW(p, lr=lr, weight_decay=0.01)),
    ("adam", "adam(beta2=0.99, weight_decay=0.001)", 0.003,
     lambda p, lr: torch.optim.Adam(p, lr=lr, betas=(0.9, 0.99), weight_decay=0.001)),
    ("lion", "lion(weight_decay=0.01)", 3e-4,
     lambda p, lr: Lion(p, lr=lr, betas=(0.9, 0.99), weight_decay=0.01)),
]

def main(argv):
    ap = harness_arguments(__doc__)
    ap.add_argument("--cpu", default="x86-64-v3")
    ap.add_argument("--rtol", type=float, default=1e-4)
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    model = CNN()
    with torch.no_grad():  # batch norm's affine away from its 1/0 start
        model.bn1.weight.uniform_(0.5, 1.5)
        model.bn1.bias.uniform_(-0.5, 0.5)
    rng = np.random.default_rng(7)
    batches = [(rng.standard_normal((B, C, H, W)).astype(np.float32),
                rng.integers(0, CLASSES, B).astype(np.int64)) for _ in range(STEPS)]
    failed = 0
    for name, spec, lr, factory in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            onnx_path = os.path.join(tmp, "cnn.onnx")
            # Exported for training: an eval-mode export folds batch norm into the convolution.
            # The export runs the module in train mode (its running statistics move), so it
            # exports a copy, and the reference starts from the statistics the file holds.
            torch.onnx.export(copy.deepcopy(model), torch.zeros(B, C, H, W), onnx_path,
                              input_names=["x"], output_names=["logits"], opset_version=13,
                              training=torch.onnx.TrainingMode.TRAINING,
                              do_constant_folding=False)
            stats = {i.name: torch.tensor(onnx.numpy_helper.to_array(i), dtype=torch.float64)
                     for i in onnx.load(onnx_path).graph.initializer if "running" in i.name}
            subprocess.run([args.tlc, onnx_path, "--train", "--loss=cross_entropy",
                            "--optimizer=" + spec, "--cpu=" + args.cpu, "-o",
                            os.path.join(tmp, "cnn.o"), "--header", os.path.join(tmp, "cnn.h")],
                           check=True)
            infer = {"inputs": ["x"], "outputs": ["logits"]}
            losses, state = train_through_c_abi(args, tmp, "cnn", batches, [lr] * STEPS,
                                                extra_outputs=["logits"], infer=infer)
        ref_model = CNN().double()
        ref_model.load_state_dict({k: v.detach().double() for k, v in model.named_parameters()},
                                  strict=False)
        ref_model.load_state_dict(stats, strict=False)
        ref_model.train()
        opt = factory(ref_model.parameters(), lr)
        ref_losses = []
        for x, y in batches:
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(ref_model(torch.tensor(x, dtype=torch.float64)),
                                                     torch.tensor(y))
            loss.backward()
            opt.step()
            ref_losses.append(loss.item())
        errs = {"loss": float(np.max(np.abs(losses - ref_losses)) / np.max(np.abs(ref_losses)))}
        # Trained params, and batch norm's running statistics (state the step updates as
        # torch does: momentum 0.1, the batch's unbiased variance).
        tracked = list(ref_model.named_parameters()) + [
            (k, v) for k, v in ref_model.named_buffers() if k.endswith(("running_mean", "running_var"))]
        for k, v in tracked:
            key = k.replace(".", "_")
            if key not in state:
                errs[k] = float("inf")
                continue
            got = state[key]
            want = v.detach().numpy().reshape(-1)
            errs[k] = float(np.max(np.abs(got - want)) / np.max(np.abs(want)))
        # cnn_run, the inference from the trained state, on the last batch: its batch norm
        # normalizes with the running statistics, as torch's eval mode does.
        ref_model.eval()
        with torch.no_grad():
            want = ref_model(torch.tensor(batches[-1][0], dtype=torch.float64)).numpy().reshape(-1)
        errs["cnn_run"] = float(np.max(np.abs(infer["got"]["logits"] - want)) / np.max(np.abs(want)))
        worst = max(errs.values())
        if worst > args.rtol:
            failed += 1
            print("FAIL onnx-training %s: relative errors %s" % (
                name, ", ".join("%s %.3g" % kv for kv in errs.items())))
        else:
            print("PASS onnx-training %s (loss %.4f -> %.4f, %d state tensors, max relative "
                  "error %.2g; cnn_run's logits %.2g)" % (name, ref_losses[0], ref_losses[-1],
                                                         len(errs) - 2, worst, errs["cnn_run"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
