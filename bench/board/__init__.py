"""The firmware as deployed (issue 11's figures: heap, allocation, loop hold, strip writes),
its press-to-frame and render times (bench/README.md)."""
