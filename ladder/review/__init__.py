"""`tianti review`'s library: each decision of one seat judged from that seat's view.

- `analysis`: the estimates (searches on views of the seat, never the true state);
- `verdict`: inaccuracy / mistake / blunder, accuracy, and what chance did;
- `context`: the month or round, the seat's situation and what followed, in words;
- `game_review`: a whole reviewed game (`review_game`, `GameReview`);
- `sources`, `cache`, `text`, `plot`: which game, the cache, the 80-column text, the chart;
- `calibration`: the estimates against the outcomes and the accuracy per player
  (benchmarks/review_calibration.py).
"""
from ladder.review.analysis import ReviewError, Settings
from ladder.review.game_review import Decision, GameReview, review_game

__all__ = ["Decision", "GameReview", "ReviewError", "Settings", "review_game"]
