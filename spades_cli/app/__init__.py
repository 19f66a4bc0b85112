"""Building and running a game for the front doors: setup, launch, printer, summaries."""
