"""Stand-in of the ``openenv`` package (openenv-core): only ``openenv.core``'s generic client, see core/__init__.py."""
