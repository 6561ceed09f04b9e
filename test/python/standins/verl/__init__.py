"""verl's ``DataProto`` as the reward manager reads it: ``batch`` (tensors by name), ``non_tensor_batch`` (arrays by name)."""


class DataProto:
    def __init__(self, batch=None, non_tensor_batch=None, meta_info=None):
        self.batch, self.non_tensor_batch, self.meta_info = dict(batch or {}), dict(non_tensor_batch or {}), dict(meta_info or {})
