"""bench/engine/features_bench.py (the contact inputs' `make bench` figures) runs its timing on the
MicroPython unix port on the kernel as mpy-cross compiles it for a board and as the web page
gets it, and on the reference, and its figures say what it measured."""


from mpytools import MICROPYTHON, MPY_CROSS, require

from bench.engine.features_bench import features_figures


def test_the_features_bench_times_the_kernel_and_its_reference():
    require(MICROPYTHON)
    require(MPY_CROSS)
    fig = features_figures(count=30, seed=1)
    assert set(fig) == {"features_us_mean", "features_us_max", "features_ref_us_mean",
                        "features_plain_us_mean", "features_heap_bytes",
                        "features_positions"}, fig
    assert fig["features_positions"] == 30
    assert 0 < fig["features_us_mean"] <= fig["features_us_max"]
    # viper's machine code, not bytecode: the same kernel as the page's plain bytecode and
    # the reference's loops are one and two orders slower
    assert fig["features_us_mean"] * 10 < fig["features_plain_us_mean"], fig
    assert fig["features_us_mean"] * 20 < fig["features_ref_us_mean"], fig
    assert fig["features_heap_bytes"] > 4096  # the escapes' table and the kernel's code
