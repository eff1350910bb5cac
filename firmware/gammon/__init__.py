# The backgammon rules engine shared by the board and the host.
from .play import Play, Plays, legal_plays  # noqa: F401
from .position import Position  # noqa: F401

VERSION = "0.1.0"
