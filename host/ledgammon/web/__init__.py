"""`ledgammon web`: the board in a browser page (the firmware under MicroPython's WebAssembly
port in a Web Worker, or a real board over Web Serial), served from this package's files."""
