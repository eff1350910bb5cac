"""Host tools for ledgammon, a lit backgammon board: client, simulator, views, export."""

__version__ = "0.1.0"
