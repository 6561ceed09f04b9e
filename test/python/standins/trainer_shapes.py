"""Shapes the verl contract scripts share: an OmegaConf-like config and the server manager's token output."""


class Cfg(dict):
    """OmegaConf-like: attribute access and .get."""

    def __getattr__(self, name):
        try:
            v = self[name]
        except KeyError:
            raise AttributeError(name) from None
        return Cfg(v) if isinstance(v, dict) else v


class TokenOutput:
    def __init__(self, token_ids, log_probs):
        self.token_ids, self.log_probs = token_ids, log_probs
