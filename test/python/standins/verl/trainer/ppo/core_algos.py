"""verl 0.7.0's advantage-estimator registry as documented: ``register_adv_est(name)`` (a decorator that
refuses a second, different function under one name), ``ADV_ESTIMATOR_REGISTRY``, ``get_adv_estimator_fn(name)``.
The trainer calls the function with ``token_level_rewards``, ``response_mask``, ``config`` and, when the
batch has uids, ``index``; it returns ``(advantages, returns)``."""

ADV_ESTIMATOR_REGISTRY = {}


def register_adv_est(name_or_enum):
    def decorator(fn):
        name = getattr(name_or_enum, "value", name_or_enum)
        if name in ADV_ESTIMATOR_REGISTRY and ADV_ESTIMATOR_REGISTRY[name] != fn:
            raise ValueError(f"Adv estimator {name} has been registered: {ADV_ESTIMATOR_REGISTRY[name]} vs {fn}")
        ADV_ESTIMATOR_REGISTRY[name] = fn
        return fn

    return decorator


def get_adv_estimator_fn(name_or_enum):
    name = getattr(name_or_enum, "value", name_or_enum)
    if name not in ADV_ESTIMATOR_REGISTRY:
        raise ValueError(f"Unknown advantage estimator: {name}")
    return ADV_ESTIMATOR_REGISTRY[name]
