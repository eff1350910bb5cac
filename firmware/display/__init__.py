# The display: the View the controller fills, the renderer that turns it into a frame,
# palettes, glyphs, power.
