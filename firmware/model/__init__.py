# The model: one game, the settings, their validation and save format (no UI, no hardware).
