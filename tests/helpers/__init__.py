"""What the tests share, imported as ``from helpers.NAME import ...`` (never from a test module).

The suite runs against the installed ``spades_cli`` (CI installs the compiled build): only
``tests/`` is put on ``sys.path`` (``pythonpath`` in pyproject), never the repository root.

- ``paths``: the repository's folders the tests read (``ROOT``, ``TRANSCRIPTS``, ``FIXTURES``).
- ``cli``: ``run_cli``, the ``spades`` command run in-process.
- ``engine``: states with chosen hands and whole hands scripted trick by trick.
- ``positions``: positions for the bot tests, with chosen hands.
- ``midhand``: a hand part played, and the same game with its hidden cards moved around.
- ``solver``: endings and the brute-force search the solvers are checked against.
- ``net``: a table hosted on 127.0.0.1 and players seated at it.
- ``prompt``: play sessions for the prompt tests.
- ``fuzz``: random mutations of files.
- ``imports``: the package's import graph read from the source, and its cycles.
"""
