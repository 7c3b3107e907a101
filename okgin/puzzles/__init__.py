"""Puzzles: positions from real games, seen from one seat, where one move is clearly best.

``price`` prices every legal move of a view over guessed deals, ``themes`` tags a puzzle by
clear rules, ``make`` mines computer players' games for puzzles, ``puzzle`` is a puzzle as
shipped and stored (the analysis board's notation: nothing its seat could not see), ``check``
prices shipped puzzles again on fresh guesses (docs/puzzles.md).
"""
