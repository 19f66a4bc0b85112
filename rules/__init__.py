"""The shipped rule presets (YAML files in this folder); installed as ``spades_cli.rules``."""
