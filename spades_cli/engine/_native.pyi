"""Machine integers for the compiled engine: a stub only, for the type checker and mypyc.

Engine modules import ``i64`` from here under ``TYPE_CHECKING``, never when they run (the
engine's only run-time imports stay the standard library and itself); mypyc compiles a
local annotated ``i64`` as a machine word. Beware: mypyc writes an ``i64`` literal shifted
left (``1 << c``) as a C ``int`` shift, wrong from bit 32 up; shift a variable instead.
"""

from mypy_extensions import i64 as i64
