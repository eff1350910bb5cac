"""Command-line misuses refused with what is wrong, before anything is sent (issue 28, 4, 5).

--timeout that is not a number of seconds above 0, an empty --flash (which would be the
default flash, the user's own game), pyserial URLs with no host or port or a port out of
range or a bad option (pyserial itself says `'<=' not supported between instances of 'int'
and 'NoneType'` or `'debug|info|warning|error'`), a config value JSON cannot send (1e999 is
infinite: the board would get `Infinity` and answer bad_json). And `ledgammon config` saying
that new terms reset the score from the next game.
"""

from __future__ import annotations

import pytest
from fakeboard import FakeBoard
from ledgammon.cli import main
from ledgammon.transport import url_problem

INTERNALS = ("NoneType", "'<='", "debug|info", "Traceback", "KeyError")


def _argv_error(capsys, *argv: str) -> str:
    """argparse's refusal: exit 2, its message on stderr."""
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    return err


@pytest.mark.parametrize("value", ["-1", "0", "nan", "inf", "-inf", "1e999", "soon"])
def test_timeout_must_be_seconds_above_zero(capsys, value):
    err = _argv_error(capsys, "state", "--timeout", value, "--port", "loop://")
    assert "--timeout" in err and "nan s" not in err


def test_timeout_above_zero_is_taken():
    from ledgammon.cli import parser

    assert parser().parse_args(["state", "--timeout", "0.25"]).timeout == 0.25


@pytest.mark.parametrize("cmd", ["sim", "play"])
@pytest.mark.parametrize("path", ["", "  "])
def test_an_empty_flash_path_is_refused(capsys, cmd, path):
    err = _argv_error(capsys, cmd, "--flash", path)
    assert "--flash" in err and "empty path" in err


@pytest.mark.parametrize(
    "url,words",
    [
        ("rfc2217://x", "names no port"),
        ("socket://nohost", "names no port"),
        ("socket://nohost:99999", "port must be a number 1-65535"),
        ("rfc2217://x:99999", "port must be a number 1-65535"),
        ("socket://h:abc", "port must be a number 1-65535"),
        ("socket://:80", "names no host"),
        ("socket://h:80?logging=loud", "logging must be one of debug/info/warning/error"),
        ("socket://h:80?speed=1", "takes no option 'speed'"),
        ("loop://?logging=loud", "logging must be one of"),
        ("rfc2217://h:80?timeout=x", "timeout must be a number of seconds"),
    ],
)
def test_a_bad_url_says_what_is_wrong_with_it(capsys, url, words):
    code = main(["hello", "--port", url, "--timeout", "1"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("ledgammon: cannot use port %s: " % url) and words in err, err
    assert not any(w in err for w in INTERNALS), err


def test_good_urls_and_paths_pass_the_check():
    for url in ("socket://localhost:2217", "rfc2217://h:80?logging=debug&timeout=3",
                "loop://", "/dev/ttyACM0", "COM3", "spy:///dev/ttyACM0"):
        assert url_problem(url) is None, url


def test_a_config_value_json_cannot_send_is_refused_on_the_host(capsys):
    with FakeBoard() as board:
        code = main(["config", "brightness=1e999", "-p", board.port, "--timeout", "5"])
        out, err = capsys.readouterr()
        sent = [r["cmd"] for r in board.requests]
    assert code == 1 and out == "" and err.count("\n") == 1, err
    assert "brightness=1e999" in err and "infinite" in err, err
    assert "config" not in sent  # nothing with Infinity in it went to the board


def test_config_says_that_new_terms_reset_the_score(capsys):
    settings = {"brightness": 64, "autoplay": False, "physical_dice": False, "palette": 0,
                "players": ["human", "human"], "level": "strong", "match_length": 0,
                "cube": True, "jacoby": False}
    nt = {"match_length": 0, "cube": True, "jacoby": False, "from": "next game",
          "score": [3, 2]}
    with FakeBoard({"config": {"ok": True, "settings": settings, "next_terms": nt}}) as board:
        code = main(["config", "jacoby=false", "-p", board.port, "--timeout", "5"])
        out, err = capsys.readouterr()
        sent = [r for r in board.requests if r["cmd"] == "config"]
    assert code == 0 and err == "", err
    assert sent[0]["set"] == {"jacoby": False}
    assert out.splitlines()[-1] == ("money play, cube on, Jacoby off from the next game: the "
                                    "score then starts again at 0-0 (now 3-2)")
    with FakeBoard({"config": {"ok": True, "settings": settings, "next_terms": None}}) as b:
        code = main(["config", "-p", b.port, "--timeout", "5"])
        out, _ = capsys.readouterr()
    assert code == 0 and len(out.splitlines()) == 1
