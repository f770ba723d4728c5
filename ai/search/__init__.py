"""The compiled search core (PIMC, SO-ISMCTS, MO-ISMCTS), one implementation for every game."""
from ai.search.mcts import AGGREGATES, FINALS, MODES, PLAYOUTS, REWARDS, Searcher

__all__ = ["AGGREGATES", "FINALS", "MODES", "PLAYOUTS", "REWARDS", "Searcher"]
