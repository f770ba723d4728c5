"""Mount Tai: the compiled rules engine (base game, promos, fan talents, Grand Tutors, solo play
and the 8-game solo challenge). Load it with ``engine.load_game("mount-tai", ...)``."""
