"""The training loop of chapter 13: mini-batches, chapter 12's gradients, a plain optimiser, and a
record of what happened at every step.

    run = train(model, tokens, targets, steps=400, lr=0.01, seed=0, progress=True)
    run.params                      # the trained parameters
    run.history["loss"]             # (steps,) the batch's loss at every step
    run.snapshots                   # what `watch(params)` returned at each checkpoint

Every step draws `batch_size` sentences (seeded: the same seed gives the same run), computes the
loss and every gradient with `tiny_model.loss_and_gradients`, and lets the optimiser move the
parameters. `history` also holds, per step, the gradient's norm ‖g‖ (all parameters), the norm of
the part reaching the queries' and keys' weights, and two measures of how saturated the softmax is
in each layer: the mean largest weight of a row (1 when every row puts all its weight on one key)
and the mean entropy of a row (0 then; ln n for uniform weights).

`progress=True` prints one line that updates as the run goes ("step 120/400 · loss 0.41 · 3.1 s,
about 7 s left"); pass a function instead to receive (step, steps, loss, elapsed, left) yourself.
It is called every `progress_every` steps (by step count, never by the clock).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

import numpy as np

from ._validate import positive_int, positive_number
from .optim import SGD, Adam
from .tiny_model import TinyModel, check_targets, check_tokens, init_params, loss_and_gradients

OPTIMISERS = {"adam": Adam, "sgd": SGD}


@dataclass
class TrainingRun:
    """What `train` returns. Chapter 13.

    `params` the final parameters; `history` arrays with one row per step: "loss" (steps,),
    "grad_norm" (steps,), "grad_norm_qk" (steps,), "max_weight" and "entropy" (steps, num_layers);
    `checkpoints` the steps (0 = before training) at which `snapshots` were taken; `seconds` the
    wall-clock time of the loop; `diverged` True when the loss stopped being finite (training stops).
    """

    model: TinyModel
    params: dict
    history: dict
    checkpoints: list = field(default_factory=list)
    snapshots: list = field(default_factory=list)
    seconds: float = 0.0
    diverged: bool = False
    optimiser: str = ""

    @property
    def final_loss(self) -> float:
        return float(self.history["loss"][-1])


class ProgressLine:
    """A progress callback that prints one updating line (a carriage return before each update), then a newline.
    Chapter 13."""

    def __init__(self, stream=None, label: str = ""):
        self.stream, self.label = stream, label
        self.width = 0  # the line last written: a shorter one is padded over it (no "leftt" left behind)

    def write(self, text: str, last: bool = False) -> None:
        """Write `text` over the line so far (a newline after it if `last`)."""
        out = self.stream or sys.stdout
        out.write("\r" + text + " " * max(0, self.width - len(text)) + ("\n" if last else ""))
        out.flush()
        self.width = 0 if last else len(text)

    def __call__(self, step: int, steps: int, loss: float, elapsed: float, left: float) -> None:
        prefix = f"{self.label}: " if self.label else ""
        self.write(
            f"{prefix}step {step}/{steps} · loss {loss:.3g} · {elapsed:.1f} s, about {left:.0f} s left", step == steps
        )


def saturation(A: np.ndarray) -> tuple[float, float]:
    """(mean largest weight, mean entropy) over every row of attention weights A (..., n_k)."""
    entropy = -(A * np.log(np.where(A > 0, A, 1.0))).sum(axis=-1)
    return float(A.max(axis=-1).mean()), float(entropy.mean())


def checkpoint_steps(steps: int, count: int) -> list[int]:
    """`count` steps from 0 (before training) to `steps` (the end), about evenly spaced, no repeats."""
    return sorted({int(round(s)) for s in np.linspace(0, steps, positive_int("checkpoints", count))})


def train(
    model: TinyModel,
    tokens,
    targets,
    *,
    steps: int = 400,
    batch_size: int = 64,
    lr: float = 0.01,
    optimiser: str = "adam",
    seed: int = 0,
    params: dict | None = None,
    checkpoints: int = 20,
    watch=None,
    progress=None,
    progress_every: int | None = None,
) -> TrainingRun:
    """Train `model` on tokens (m, n_tokens) and targets (m,) for `steps` steps. Chapter 13.

    `optimiser` "adam" or "sgd" at learning rate `lr`; `seed` fixes the starting parameters
    (unless `params` is given) and the order of the batches. `watch(params)` is called at
    `checkpoints` steps spread from 0 to `steps` and its results kept in `snapshots`. `progress`:
    True for a `ProgressLine`, or a callable (step, steps, loss, elapsed, left), called every
    `progress_every` steps (default: 20 times a run) and at the end.
    """
    tokens = check_tokens(model, tokens)
    targets = check_targets(model, targets, tokens.shape[0])
    steps, batch_size = positive_int("steps", steps), positive_int("batch_size", batch_size)
    if optimiser not in OPTIMISERS:
        raise ValueError(f"optimiser must be one of {sorted(OPTIMISERS)}, got {optimiser!r}")
    opt = OPTIMISERS[optimiser](lr=positive_number("lr", lr))
    batch_size = min(batch_size, tokens.shape[0])
    params = init_params(model, seed) if params is None else dict(params)
    rng = np.random.default_rng([seed, 1])  # the batches' stream, apart from the parameters'
    report = ProgressLine() if progress is True else progress
    every = positive_int("progress_every", progress_every or max(1, steps // 20))
    at = checkpoint_steps(steps, checkpoints) if watch is not None else []
    L = model.num_layers
    history = {name: np.full(steps, np.nan) for name in ("loss", "grad_norm", "grad_norm_qk")}
    history |= {"max_weight": np.full((steps, L), np.nan), "entropy": np.full((steps, L), np.nan)}
    run = TrainingRun(model, params, history, optimiser=repr(opt))
    start = time.perf_counter()
    if watch is not None and 0 in at:
        run.checkpoints.append(0)
        run.snapshots.append(watch(params))
    for step in range(1, steps + 1):
        rows = rng.choice(tokens.shape[0], size=batch_size, replace=False)
        try:
            loss, grads, fw = loss_and_gradients(model, params, tokens[rows], targets[rows])
        except FloatingPointError:
            run.diverged = True
            break
        norms = {name: float(np.sum(g * g)) for name, g in grads.items()}
        history["loss"][step - 1] = loss
        history["grad_norm"][step - 1] = np.sqrt(sum(norms.values()))
        history["grad_norm_qk"][step - 1] = np.sqrt(sum(v for k, v in norms.items() if k[:3] in ("W_Q", "W_K")))
        for layer, A in enumerate(fw.A):
            history["max_weight"][step - 1, layer], history["entropy"][step - 1, layer] = saturation(A)
        if not all(np.isfinite(v) for v in (loss, history["grad_norm"][step - 1])):
            run.diverged = True
            break
        with np.errstate(over="ignore", invalid="ignore"):
            stepped = opt.step(params, grads)
        if not all(np.all(np.isfinite(p)) for p in stepped.values()):
            run.diverged = True  # params stay the last finite ones
            break
        params = stepped
        if step in at:
            run.checkpoints.append(step)
            run.snapshots.append(watch(params))
        if report is not None and (step % every == 0 or step == steps):
            elapsed = time.perf_counter() - start
            report(step, steps, loss, elapsed, elapsed / step * (steps - step))
    run.params, run.seconds = params, time.perf_counter() - start
    return run


__all__ = ["train", "TrainingRun", "ProgressLine"]
