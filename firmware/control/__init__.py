# The control layer: what a press or a request means, the menu, dice entry, the board's own
# player, boot.
