"""The board's levels against GNU Backgammon and a heuristic, cubeless and with the cube
(`python -m bench.strength`, `make strength`), and the data its cube rules were tuned on."""
