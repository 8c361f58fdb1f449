"""The terminal user interface. Not built yet."""
