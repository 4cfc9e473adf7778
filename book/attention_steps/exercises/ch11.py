"""Chapter 11 (long context): check-yourself exercises on the online-softmax
update, on the memory tiling saves and on the KV cache."""

from __future__ import annotations

import numpy as np

from ..costs import attention_bytes
from ..kv_cache import kv_cache_bytes
from ..tiled import online_softmax_steps
from .checking import Exercise, register

# Exercises 11.1 and 11.2: one row of scores read in two blocks of two.
EX_SCORES = np.array([2.0, 1.0, 4.0, 3.0])
EX_BLOCK = 2
# Exercise 11.3: the naive n × n matrix against one b × b tile, both float64.
EX_N, EX_B = 8192, 256


def _steps():
    return online_softmax_steps(EX_SCORES, np.ones((EX_SCORES.size, 1)), EX_BLOCK)


register(
    Exercise(
        id="11.1",
        name="[m, ℓ] after both blocks",
        expected=lambda: np.array([_steps()[-1].m, _steps()[-1].l]),
        hint=(
            "After block 1, m is its largest score and ℓ = Σ exp(s − m) over it. Block 2 brings a larger "
            "maximum: multiply the old ℓ by exp(m_old − m_new), then add exp(s − m_new) for the new scores."
        ),
    )
)

register(
    Exercise(
        id="11.2",
        name="the rescale factor",
        expected=lambda: _steps()[1].rescale,
        atol=1e-3,
        hint="The factor is exp(m_old − m_new): the old maximum minus the new one, exponentiated (it is ≤ 1).",
    )
)

register(
    Exercise(
        id="11.3",
        name="how many times smaller",
        expected=lambda: attention_bytes(EX_N, 8) / attention_bytes(EX_B, 8),
        atol=0.5,
        hint="Both are square matrices of 8-byte numbers: the ratio is (n / b)².",
    )
)

# Exercise 11.4: the KV cache of a model with grouped-query attention, at FP16.
KV_LAYERS, KV_HEADS, KV_GROUPS, KV_D_K, KV_N = 24, 16, 4, 64, 8192

register(
    Exercise(
        id="11.4",
        name="the KV cache in bytes",
        expected=lambda: kv_cache_bytes(KV_N, layers=KV_LAYERS, kv_heads=KV_GROUPS, d_k=KV_D_K, bytes_per_entry="FP16"),
        atol=0.5,
        hint=(
            "bytes = 2 (K and V) × layers × key/value heads × d_k × n × 2 bytes (FP16). With GQA only the "
            "key/value heads count, not the query heads."
        ),
    )
)
