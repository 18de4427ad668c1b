"""Module-level helpers of another module, called by the UDFs of test_helpers.py."""
import re

SUFFIX = "!"
SPACES = re.compile(r"\s+")


def squash(s):
    return SPACES.sub(" ", s).strip()


def shout(s, mark=SUFFIX):
    return squash(s).upper() + mark
