"""`python -m nrt` runs the nrt command line."""
import subprocess
import sys


def test_python_m_nrt_apply(tmp_path):
    inp = tmp_path / "in.txt"
    inp.write_text("straße\nx\n")
    r = subprocess.run([sys.executable, "-m", "nrt", "apply", "-e", "lambda s: s.upper()",
                        str(inp)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["STRASSE", "X"]


def test_python_m_nrt_errors_and_usage():
    r = subprocess.run([sys.executable, "-m", "nrt"], capture_output=True, text=True)
    assert r.returncode == 2 and "usage" in r.stderr
    r = subprocess.run([sys.executable, "-m", "nrt", "apply", "-e", "lambda s: int(s)"],
                       input="1\nx\n", capture_output=True, text=True)
    assert r.returncode == 1 and "ValueError" in r.stderr


def test_console_script_next_to_the_interpreter(tmp_path):
    import os
    script = os.path.join(os.path.dirname(sys.executable), "nrt")
    if not os.path.exists(script):
        import pytest
        pytest.skip("the package is not installed into this environment (build-tree run)")
    r = subprocess.run([script, "apply", "-e", "lambda s: s[::-1]"], input="abc\n",
                       capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout == "cba\n"
