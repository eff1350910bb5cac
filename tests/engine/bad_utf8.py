# Byte strings that are not UTF-8 (overlong forms, surrogates, past U+10FFFF, cut short,
# stray bytes): what the link must refuse, on the board and in the host's fuzzing.
BAD_UTF8 = (
    b"\xc0\xaf",
    b"\xe0\x80\xaf",
    b"\xf0\x80\x80\xaf",
    b"\xf4\x90\x80\x80",
    b"\xed\xa0\x80",
    b"\xed\xbf\xbf",
    b"\xc1\xbf",
    b"\xf5\x80\x80\x80",
    b"\x80",
    b"\xc3",
    b"\xe2\x82",
    b"\xff",
)
