"""Evaluations learned from self-play: record positions of games between the current bots
(`selfplay`), fit a model of each seat's final score on them with numpy (`fit`), and write the
model as a data file that the game's compiled evaluation loads (`engine/mount_tai/learned.pyx`).

    .venv/bin/python -m ai.learn --help
"""
