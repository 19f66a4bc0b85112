"""Play at one table from several terminals: ``spades host`` and ``spades join``.

- :mod:`~spades_cli.net.wire`: the messages of the table protocol, its limits, tokens;
- :mod:`~spades_cli.net.server`: the host's side (connections, joined seats, events);
- :mod:`~spades_cli.net.client`: the joined seat's side (connection, prompt session);
- :mod:`~spades_cli.net.hosting`: a hosted game from start (or resume) to its end.

The protocol is written down in ``docs/table-protocol.md``.
"""
