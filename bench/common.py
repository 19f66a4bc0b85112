"""What every benchmark prints first: which ``spades_cli`` it imports and how its engine was built.

The benchmarks import the installed package: run as ``python bench/NAME.py``, Python puts
``bench/`` (not the checkout) first on ``sys.path``. After ``pip install '.[bench]'`` that
is the mypyc-compiled engine; an editable install runs the checkout as plain Python.
"""

from __future__ import annotations

import os
import sys


def build_line() -> str:
    import spades_cli
    from spades_cli.engine import compiled

    where = os.path.dirname(os.path.abspath(spades_cli.__file__))
    build = "compiled (mypyc)" if compiled() else "pure Python"
    return f"python {sys.version.split()[0]}; spades_cli from {where}; engine {build}"
