"""`python -m nrt ...` and the `nrt` script: the nrt command line (apply, refprune, demo),
the same program as the `nrt` binary, which the package carries."""

import os
import sys
from pathlib import Path


def main():
    # Not resolve(): in a build tree the .py files are links into the source tree.
    binary = Path(os.path.abspath(__file__)).parent / "bin" / "nrt"
    if not binary.exists():
        sys.exit(f"nrt: the command-line program is missing from the package ({binary})")
    os.execv(binary, ["nrt", *sys.argv[1:]])


if __name__ == "__main__":
    main()
