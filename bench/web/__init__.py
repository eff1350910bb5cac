"""The web page's figures in headless Chromium (bench/README.md)."""
