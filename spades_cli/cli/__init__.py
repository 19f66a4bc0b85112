"""The command line: the click group, shared options and one module per command."""
