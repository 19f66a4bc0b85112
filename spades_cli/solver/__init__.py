"""Double-dummy search: the Python solver and the C core, asking the engine the rules."""
