"""Chapter 11 (long context): check-yourself exercises on the online-softmax
update, on the memory tiling saves and on the KV cache."""

from __future__ import annotations

import numpy as np

from ..costs import attention_bytes
from ..i18n import N_
from ..kv_cache import kv_cache_bytes
from ..tiled import online_softmax_steps
from .checking import Exercise, Mistake, register

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
        name=N_("[m, ℓ] after both blocks"),
        expected=lambda: np.array([_steps()[-1].m, _steps()[-1].l]),
        mistakes=(
            Mistake(
                N_("add block 2's terms without rescaling the old ℓ by exp(m_old − m_new)"),
                lambda: np.array([_steps()[-1].m, _steps()[0].l + np.exp(EX_SCORES[EX_BLOCK:] - _steps()[-1].m).sum()]),
            ),
            Mistake(
                N_("keep block 1's maximum: m is the largest score seen so far, block 2 included"),
                lambda: np.array([_steps()[0].m, np.exp(EX_SCORES - _steps()[0].m).sum()]),
            ),
            Mistake(
                N_("sum exp(s) without subtracting the maximum"),
                lambda: np.array([_steps()[-1].m, np.exp(EX_SCORES).sum()]),
            ),
        ),
        hint=(
            N_(
                "After block 1, m is its largest score and ℓ = Σ exp(s − m) over it. Block 2 brings a larger "
                "maximum: multiply the old ℓ by exp(m_old − m_new), then add exp(s − m_new) for the new scores."
            )
        ),
    )
)

register(
    Exercise(
        id="11.2",
        name=N_("the rescale factor"),
        expected=lambda: _steps()[1].rescale,
        mistakes=(
            Mistake(
                N_("compute exp(m_new − m_old): the factor shrinks the old sum, so it is at most 1"),
                lambda: 1 / _steps()[1].rescale,
            ),
            Mistake(
                N_("forget the exponential: the factor is exp(m_old − m_new), not the difference"),
                lambda: _steps()[0].m - _steps()[1].m,
            ),
        ),
        atol=1e-3,
        hint=N_("The factor is exp(m_old − m_new): the old maximum minus the new one, exponentiated (it is ≤ 1)."),
    )
)

register(
    Exercise(
        id="11.3",
        name=N_("how many times smaller"),
        expected=lambda: attention_bytes(EX_N, 8) / attention_bytes(EX_B, 8),
        mistakes=(
            Mistake(N_("compare the sides, n / b: the areas are what count, (n / b)²"), lambda: EX_N / EX_B),
            Mistake(
                N_("give the difference in bytes, not the ratio"),
                lambda: attention_bytes(EX_N, 8) - attention_bytes(EX_B, 8),
            ),
        ),
        atol=0.5,
        hint=N_("Both are square matrices of 8-byte numbers: the ratio is (n / b)²."),
    )
)

# Exercise 11.4: the KV cache of a model with grouped-query attention, at FP16.
KV_LAYERS, KV_HEADS, KV_GROUPS, KV_D_K, KV_N = 24, 16, 4, 64, 8192

register(
    Exercise(
        id="11.4",
        name=N_("the KV cache in bytes"),
        whole=True,
        expected=lambda: kv_cache_bytes(KV_N, layers=KV_LAYERS, kv_heads=KV_GROUPS, d_k=KV_D_K, bytes_per_entry="FP16"),
        mistakes=(
            Mistake(
                N_("count all the query heads: with GQA only the key/value heads are cached"),
                lambda: kv_cache_bytes(KV_N, layers=KV_LAYERS, kv_heads=KV_HEADS, d_k=KV_D_K),
            ),
            Mistake(
                N_("cache only K or only V: both are cached (the factor 2)"),
                lambda: kv_cache_bytes(KV_N, layers=KV_LAYERS, kv_heads=KV_GROUPS, d_k=KV_D_K) // 2,
            ),
            Mistake(
                N_("count 4 bytes per entry (FP32): FP16 takes 2"),
                lambda: kv_cache_bytes(KV_N, layers=KV_LAYERS, kv_heads=KV_GROUPS, d_k=KV_D_K, bytes_per_entry=4),
            ),
            Mistake(
                N_("count one layer: every layer has its own cache"),
                lambda: kv_cache_bytes(KV_N, layers=1, kv_heads=KV_GROUPS, d_k=KV_D_K),
            ),
            Mistake(
                N_("give MiB (÷ 2²⁰), not bytes"),
                lambda: kv_cache_bytes(KV_N, layers=KV_LAYERS, kv_heads=KV_GROUPS, d_k=KV_D_K) / 2**20,
            ),
        ),
        atol=0.5,
        hint=(
            N_(
                "bytes = 2 (K and V) × layers × key/value heads × d_k × n × 2 bytes (FP16). With GQA only the "
                "key/value heads count, not the query heads."
            )
        ),
    )
)
