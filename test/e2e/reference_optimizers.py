"""Lion (Chen et al. 2023, "Symbolic Discovery of Optimization Algorithms"), which PyTorch 1.13
lacks, as a torch.optim.Optimizer for the training checks' references: decoupled weight decay,
then the sign of the interpolated update, then the momentum update."""
import torch


class Lion(torch.optim.Optimizer):
    def __init__(self, params, lr, betas=(0.9, 0.99), weight_decay=0.0):
        super().__init__(params, dict(lr=lr, betas=betas, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            b1, b2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                m = self.state[p].setdefault("exp_avg", torch.zeros_like(p))
                u = b1 * m + (1 - b1) * p.grad
                p.mul_(1 - group["lr"] * group["weight_decay"])
                p.sub_(group["lr"] * torch.sign(u))
                m.mul_(b2).add_((1 - b2) * p.grad)
