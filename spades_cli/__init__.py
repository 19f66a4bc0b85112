"""spades: the two-player draft game and four-player partnership Spades at the command line."""

__version__ = "0.1.0"
