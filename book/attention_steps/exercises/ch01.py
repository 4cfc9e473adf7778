"""Chapter 1 (projection): check-yourself exercises on the source article's "I love" example."""

from __future__ import annotations

import numpy as np

from ..core import projection
from ..examples import i_love
from ..notation import ORIGINAL_TRANSFORMER
from .checking import Exercise, register

# A third token "you" for exercises 1.2, 2.1 and 2.3: not in the source articles; it shares its
# first feature with "I" ([1, 0, 1, 0]) and its last with "love" ([0, 1, 0, 1]).
YOU = np.array([1, 0, 0, 1], dtype=float)

register(
    Exercise(
        id="1.1",
        name="V",
        expected=lambda: projection(i_love().X, i_love().W_V),
        hint=(
            "V = X W_V has one row per token (2 × 3). Row i is x_i W_V: the 1s in x_i pick rows of W_V "
            "and you add those rows. \"I\" = [1, 0, 1, 0] picks rows 1 and 3; \"love\" = [0, 1, 0, 1] "
            "picks rows 2 and 4 (rows counted from 1; in code W_V[0], W_V[2] and W_V[1], W_V[3])."
        ),
    )
)

register(
    Exercise(
        id="1.2",
        name="q_you",
        expected=lambda: projection(YOU[None, :], i_love().W_Q)[0],
        hint=(
            "A query is the token's row times W_Q: q = x W_Q, a vector of d_k = 3 numbers. "
            "x = [1, 0, 0, 1] picks rows 1 and 4 of W_Q (W_Q[0] and W_Q[3] in code); add them."
        ),
    )
)

register(
    Exercise(
        id="1.3",
        name="the number of weights",
        expected=lambda: 3 * ORIGINAL_TRANSFORMER.d_model * ORIGINAL_TRANSFORMER.d_k,
        atol=0.5,
        hint=(
            "Each of W_Q, W_K, W_V has shape d_model × d_k = 512 × 64 in one head of the original "
            "Transformer; count the entries of one and multiply by three."
        ),
    )
)
