"""Chapter 1 (projection): check-yourself exercises on the source article's "I love" example."""

from __future__ import annotations

from ..core import projection
from ..examples import YOU, i_love
from ..i18n import N_
from ..notation import ORIGINAL_TRANSFORMER
from .checking import Exercise, Mistake, register

EX = {"ex": i_love}  # the example the exercises read: check("1.1", my_V, ex=ex)

register(
    Exercise(
        id="1.1",
        name="V",
        expected=lambda ex: projection(ex.X, ex.W_V),
        inputs=EX,
        mistakes=(
            Mistake(N_("multiply by W_Q instead of W_V"), lambda ex: projection(ex.X, ex.W_Q)),
            Mistake(N_("multiply by W_K instead of W_V"), lambda ex: projection(ex.X, ex.W_K)),
            Mistake(
                N_("write W_Vᵀ Xᵀ (the transpose of V = X W_V): one row per token, please"),
                lambda ex: projection(ex.X, ex.W_V).T,
            ),
        ),
        hint=(
            N_(
                "V = X W_V has one row per token (2 × 3). Row i is x_i W_V: the 1s in x_i pick rows of W_V "
                'and you add those rows. "I" = [1, 0, 1, 0] picks rows 1 and 3; "love" = [0, 1, 0, 1] '
                "picks rows 2 and 4 (rows counted from 1; in code W_V[0], W_V[2] and W_V[1], W_V[3])."
            )
        ),
    )
)

register(
    Exercise(
        id="1.2",
        name="q_you",
        expected=lambda ex: projection(YOU[None, :], ex.W_Q)[0],
        inputs=EX,
        mistakes=(
            Mistake(N_('multiply by W_K: that gives the key of "you", not its query'), lambda ex: YOU @ ex.W_K),
            Mistake(N_("take only the row of W_Q for the last 1 in x, not the sum of both rows"), lambda ex: ex.W_Q[3]),
        ),
        hint=(
            N_(
                "A query is the token's row times W_Q: q = x W_Q, a vector of d_k = 3 numbers. "
                "x = [1, 0, 0, 1] picks rows 1 and 4 of W_Q (W_Q[0] and W_Q[3] in code); add them."
            )
        ),
    )
)

_D_MODEL, _D_K = ORIGINAL_TRANSFORMER.d_model, ORIGINAL_TRANSFORMER.d_k

register(
    Exercise(
        id="1.3",
        name=N_("the number of weights"),
        whole=True,
        expected=lambda: 3 * _D_MODEL * _D_K,
        atol=0.5,
        mistakes=(
            Mistake(N_("count one matrix instead of three"), lambda: _D_MODEL * _D_K),
            Mistake(
                N_("use d_model × d_model matrices: that is the whole layer's W_Q, not one head's W_Q^(r)"),
                lambda: 3 * _D_MODEL * _D_MODEL,
            ),
            Mistake(N_("add the sizes instead of multiplying them"), lambda: 3 * (_D_MODEL + _D_K)),
        ),
        hint=(
            N_(
                "Each of W_Q^(r), W_K^(r), W_V^(r) has shape d_model × d_k in one head of the original "
                "Transformer; count the entries of one and multiply by three."
            )
        ),
    )
)
