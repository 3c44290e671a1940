"""The tests import the package from python/ and find the CLI at $SKYLINE_BIN or build/."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
SKYLINE_BIN = os.environ.get("SKYLINE_BIN", os.path.join(REPO, "build", "skyline"))
