"""The serial link: round trips and games a second through the simulator's pty, and a host
that never reads (bench/README.md)."""
