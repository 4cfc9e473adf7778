"""Chapter 8 (the whole layer): check-yourself exercises on the "animal … it"
sentence and on the cost of the n × n attention matrix."""

from __future__ import annotations

from ..costs import attention_bytes, stage_costs
from ..i18n import N_, _
from ..sentence import sentence_trace
from .checking import Exercise, Mistake, register

MIB = 2**20
# The sizes the exercises ask about (the chapter glues them into the questions).
MEMORY_N, MEMORY_PRECISION = 8192, "FP32"
SCORES_N, SCORES_D, SCORES_H = 2048, 512, 8

_TOKENS, _TRACE = sentence_trace()
I_IT, J_ANIMAL = _TOKENS.index("it"), _TOKENS.index("animal")
HEAD = {"head": lambda: sentence_trace()[1].head(0)}  # 8.1 reads head 1: check("8.1", ..., head=head)


def _share(head, i=I_IT, j=J_ANIMAL):
    """a_ij v_j: how much token j's value row adds to token i's output in this head.

    The indices are those of "it" and "animal" in the book's sentence: a head of a sentence of another
    length is an error saying so (rather than a row and column of other words, or an IndexError)."""
    n = len(_TOKENS)
    if tuple(head.A.shape[-2:]) != (n, n):
        raise ValueError(
            _(
                'exercise 8.1 reads row "it" (token {it}) and column "animal" (token {animal}) of the book\'s '
                "sentence, {n} tokens; this head's A is {rows} × {cols}: answer it on the book's sentence, "
                "tokens = tokenize(SENTENCE)"
            ).format(it=I_IT + 1, animal=J_ANIMAL + 1, n=n, rows=head.A.shape[-2], cols=head.A.shape[-1])
        )
    return head.A[i, j] * head.V[j]


register(
    Exercise(
        id="8.1",
        name=N_('the share of "animal" in z_it'),
        expected=_share,
        inputs=HEAD,
        mistakes=(
            Mistake(
                N_(
                    'use a_animal,it (the weight "animal" gives "it") instead of a_it,animal: '
                    "the row is the query, the column the key"
                ),
                lambda head: head.A[J_ANIMAL, I_IT] * head.V[J_ANIMAL],
            ),
            Mistake(
                N_("count the tokens from 1 in code: tokens.index(...) already gives the code index"),
                lambda head: head.A[I_IT + 1, J_ANIMAL + 1] * head.V[J_ANIMAL + 1],
            ),
            Mistake(
                N_('give the whole output z_it: the question asks for the part that comes from "animal"'),
                lambda head: head.Z[I_IT],
            ),
            Mistake(N_("forget the weight: v_animal alone is not its share"), lambda head: head.V[J_ANIMAL]),
            Mistake(
                N_("use head 2 (t.head(1)): head 1 is t.head(0) in code"),
                lambda head: _share(sentence_trace()[1].head(1)),
            ),
        ),
        hint=(
            N_(
                'z_it = Σ_j a_it,j v_j. The term for "animal" is the weight of row "it", column "animal" of head.A '
                'times the value row of "animal" in head.V: use tokens.index(...) for both indices.'
            )
        ),
    )
)

register(
    Exercise(
        id="8.2",
        name=N_("the memory in MiB"),
        expected=lambda: attention_bytes(MEMORY_N, MEMORY_PRECISION) / MIB,
        atol=0.5,
        mistakes=(
            Mistake(
                N_("divide by 10⁶ (MB) instead of 2²⁰ = 1,048,576 (MiB)"),
                lambda: attention_bytes(MEMORY_N, MEMORY_PRECISION) / 1e6,
            ),
            Mistake(
                N_("count 2 bytes per entry (FP16) instead of FP32's 4"),
                lambda: attention_bytes(MEMORY_N, "FP16") / MIB,
            ),
            Mistake(N_("give bytes, not MiB"), lambda: attention_bytes(MEMORY_N, MEMORY_PRECISION)),
            Mistake(N_("give GiB (÷ 2³⁰), not MiB"), lambda: attention_bytes(MEMORY_N, MEMORY_PRECISION) / 2**30),
            Mistake(N_("count entries, not bytes (forgot the 4 bytes per entry)"), lambda: MEMORY_N**2 / MIB),
        ),
        hint=N_("The matrix has n × n entries; at FP32 each takes 4 bytes. Divide the bytes by 2**20 to get MiB."),
    )
)


def _scores_count(n=SCORES_N, d=SCORES_D):
    return next(s.count for s in stage_costs(n, d) if s.stage == "scores QKᵀ")


register(
    Exercise(
        id="8.3",
        name=N_("the multiply-adds of QKᵀ"),
        whole=True,
        expected=_scores_count,
        atol=0.5,
        mistakes=(
            Mistake(
                N_("count floating-point operations (a multiply and an add each): the question counts multiply-adds"),
                lambda: 2 * _scores_count(),
            ),
            Mistake(
                N_("count one head of width d/h only: the h heads together do the full count"),
                lambda: _scores_count() / SCORES_H,
            ),
            Mistake(
                N_("forget the length d of each dot product: n × n is the number of scores, not the work"),
                lambda: SCORES_N**2,
            ),
            Mistake(N_("count n · d², the cost of a projection, not of QKᵀ"), lambda: SCORES_N * SCORES_D**2),
        ),
        hint=(
            N_(
                "Q is n × d and Kᵀ is d × n: each of the n × n scores is a dot product of length d, "
                "which takes d multiply-adds."
            )
        ),
    )
)
