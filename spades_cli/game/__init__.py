"""The game layer: one ``GameRun`` per game and the typed events it emits."""
