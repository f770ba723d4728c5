"""Tiny games with known answers, for testing the search (not for play)."""
