"""Pieces shared by every game: the C-level interface, the RNG, the generic State and Game."""
