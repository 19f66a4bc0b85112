"""Hindsight double-dummy analysis of recorded games."""
