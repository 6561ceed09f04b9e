"""verl 0.7.0's reward-manager base: built as ``cls(tokenizer, num_examine, compute_score, reward_fn_key, **reward_kwargs)``,
called as ``manager(data, return_dict=False)``."""

from abc import ABC, abstractmethod


class AbstractRewardManager(ABC):
    @abstractmethod
    def __init__(self, tokenizer, num_examine, compute_score, reward_fn_key, **kwargs):
        pass

    @abstractmethod
    def __call__(self, data, return_dict=False):
        pass
