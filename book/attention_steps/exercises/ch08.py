"""Chapter 8 (the whole layer): check-yourself exercises on the "animal … it"
sentence and on the cost of the n × n attention matrix."""

from __future__ import annotations

from ..costs import attention_bytes, stage_costs
from ..sentence import sentence_trace
from .checking import Exercise, register

MIB = 2**20
# The sizes the exercises ask about (the chapter glues them into the questions).
MEMORY_N, MEMORY_PRECISION = 8192, "FP32"
SCORES_N, SCORES_D = 2048, 512


_TOKENS, _TRACE = sentence_trace()
_N, _D_V = len(_TOKENS), _TRACE.d_v  # quoted in the hint, computed rather than typed


def _it_output():
    tokens, t = sentence_trace()
    return t.head(0).Z[tokens.index("it")]


register(
    Exercise(
        id="8.1",
        name="z_it",
        expected=_it_output,
        hint=(
            "In head 1 (coreference, head = t.head(0) in code), z for \"it\" is a weighted sum of the "
            f"value rows: take row i = tokens.index('it') of head.A ({_N} weights) and multiply it by "
            f"head.V ({_N} × {_D_V}): head.A[i] @ head.V gives {_D_V} numbers."
        ),
    )
)

register(
    Exercise(
        id="8.2",
        name="the memory in MiB",
        expected=lambda: attention_bytes(MEMORY_N, MEMORY_PRECISION) / MIB,
        atol=0.5,
        hint=(
            "The matrix has n × n entries; at FP32 each takes 4 bytes. Divide the bytes by "
            "2**20 = 1,048,576 to get MiB."
        ),
    )
)

register(
    Exercise(
        id="8.3",
        name="the multiply-adds of QKᵀ",
        expected=lambda: next(s.count for s in stage_costs(SCORES_N, SCORES_D) if s.stage == "scores QKᵀ"),
        atol=0.5,
        hint=(
            "Q is n × d and Kᵀ is d × n: each of the n × n scores is a dot product of length d, "
            "so n · n · d multiply-adds (h heads of width d_k = d / h do the same total)."
        ),
    )
)
