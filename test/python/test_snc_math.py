"""Hand-computed check of the verl SNC arithmetic (resources/trainers/verl/harness_lab_snc_math.py).

Run: python3 -m unittest discover -s test/python (needs numpy; run by test/unit/trainer-glue-python.test.ts).
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "resources", "trainers", "verl"))
import numpy as np  # noqa: E402

from harness_lab_snc_math import credit_scale, credit_scores, snc_advantages, turn_terms  # noqa: E402


class SncMath(unittest.TestCase):
    def test_hand_computed_batch(self):
        # Two rollouts of one group (uid "q"), one alone (uid "r").
        credits = [[0.2, 0.0], [-0.2], [0.4]]
        # Non-zero credits 0.2, -0.2, 0.4: mean 2/15, population std sqrt(((1/15)^2 + (5/15)^2 + (4/15)^2) / 3) = sqrt(14)/15.
        s = np.sqrt(14) / 15
        self.assertAlmostEqual(credit_scale(credits), s, places=12)
        self.assertAlmostEqual(credit_scale(credits, "mean-abs"), 0.8 / 3, places=12)
        # With clamp 0.5: 0.2 / s = 0.80 -> 0.5, times lambda 0.5 -> 0.25; -0.2 -> -0.25; 0.4 -> 0.25; zero stays zero.
        terms = turn_terms(credits, lam=0.5, clamp=0.5)
        self.assertEqual(terms, [[0.25, 0.0], [-0.25], [0.25]])
        # Unclamped (C = 3): lambda * c / s = 0.5 * 0.2 * 15 / sqrt(14) = 1.5 / sqrt(14).
        u = 1.5 / np.sqrt(14)
        np.testing.assert_allclose(np.concatenate([np.array(t) for t in turn_terms(credits, lam=0.5)]), [u, 0, -u, 2 * u], atol=1e-12)
        terms = [[0.5, 0.0], [-0.5], [0.5]]  # round numbers for the advantage check below
        L = 8
        rows = np.stack(
            [
                # turn 0: tokens 0-1, observation 2-3, turn 1: tokens 4-5; outcome 1.0 in slot 7.
                credit_scores([0, 0, -1, -1, 1, 1], terms[0], 1.0, L),
                credit_scores([0, 0, 0], terms[1], 0.0, L),
                credit_scores([0, 0], terms[2], 0.3, L),
            ]
        )
        self.assertEqual(rows[0].tolist(), [0.5, 0.5, 0, 0, 0, 0, 0, 1.0])
        mask = np.array(
            [
                [1, 1, 0, 0, 1, 1, 0, 0],
                [1, 1, 1, 0, 0, 0, 0, 0],
                [1, 1, 0, 0, 0, 0, 0, 0],
            ]
        )
        adv = snc_advantages(rows, mask, ["q", "q", "r"], eps=0.0)
        # Group q: rewards 1 and 0, mean 0.5, unbiased std sqrt(0.5): outcome advantages +-0.5/sqrt(0.5) = +-sqrt(0.5).
        a = np.sqrt(0.5)
        expected = np.array(
            [
                [a + 0.5, a + 0.5, 0, 0, a, a, 0, 0],
                [-a - 0.5, -a - 0.5, -a - 0.5, 0, 0, 0, 0, 0],
                # A group of one: mean 0, std 1 -> outcome advantage 0.3, plus its turn term 0.5.
                [0.8, 0.8, 0, 0, 0, 0, 0, 0],
            ]
        )
        np.testing.assert_allclose(adv, expected, atol=1e-12)
        # Without std normalisation (Dr. GRPO): +-0.5.
        np.testing.assert_allclose(snc_advantages(rows, mask, ["q", "q", "r"], norm_by_std=False)[0, :2], [1.0, 1.0])

    def test_lambda_zero_is_the_outcome_advantage(self):
        terms = turn_terms([[0.3, -0.1]], lam=0.0)
        row = credit_scores([0, 1], terms[0], 2.0, 4)
        np.testing.assert_allclose(snc_advantages(row[None, :], np.array([[1, 1, 0, 0]]), ["x"], eps=0.0), [[2.0, 2.0, 0, 0]], atol=1e-12)

    def test_refusals(self):
        with self.assertRaises(ValueError):
            credit_scores([0, 0, 0, 0], [0.1], 1.0, 4)  # no free last slot
        with self.assertRaises(ValueError):
            snc_advantages(np.zeros((1, 3)), np.ones((1, 3)), ["x"])  # last slot not masked
        with self.assertRaises(ValueError):
            turn_terms([[0.1]], lam=-1.0)

    def test_small_credits_use_the_floor(self):
        # One non-zero credit: std 0 -> s = s_min = 5e-4; 1e-4 / 5e-4 = 0.2.
        self.assertAlmostEqual(turn_terms([[1e-4, 0.0]], lam=1.0)[0][0], 0.2, places=12)


if __name__ == "__main__":
    unittest.main()
