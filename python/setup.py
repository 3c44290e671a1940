"""Puts the built libskyline.so into the package (from $SKYLINE_LIB, or build/ of the
repository, as the README's build leaves it) so that an installed package finds it
beside itself. Metadata: pyproject.toml."""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        src = os.environ.get("SKYLINE_LIB") or os.path.join(os.path.dirname(HERE), "build",
                                                              "libskyline.so")
        if not os.path.exists(src):
            raise SystemExit("skyline: %s not found: build the library first (README) or "
                             "set SKYLINE_LIB" % src)
        dst = os.path.join(self.build_lib, "skyline", "libskyline.so")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)


setup(cmdclass={"build_py": BuildWithLibrary})
