"""resources/trainers/verl/harness_lab_reward.py: the reward of sets from no benchmark, on hand-made rows."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources", "trainers", "verl"))
from harness_lab_reward import compute_score  # noqa: E402


class RewardTest(unittest.TestCase):
    def test_exact_match_after_normalisation(self):
        gt = {"target": ["The Ural River", "Ural"]}
        self.assertEqual(compute_score("harness-lab/demo", "<think>x</think><answer>ural river.</answer>", gt), 1.0)
        self.assertEqual(compute_score("harness-lab/demo", "I think\nUral", gt), 1.0)
        self.assertEqual(compute_score("harness-lab/demo", "<answer>Volga</answer>", gt), 0.0)
        self.assertEqual(compute_score("harness-lab/demo", "", gt), 0.0)
        self.assertEqual(compute_score("harness-lab/demo", "<answer>a</answer> then <answer>Ural</answer>", {"target": "Ural"}), 1.0)

    def test_refuses_a_row_without_target(self):
        with self.assertRaises(ValueError):
            compute_score("harness-lab/demo", "x", {"style": "rule"})


if __name__ == "__main__":
    unittest.main()
