"""The package's build backend (PEP 517 and PEP 660), standard library only.

pip builds the package with it and nothing else: pyproject.toml requires no build tools,
so `pip install ./python` works in a plain venv with no network and no setuptools or
wheel (Debian's python3-venv gives a venv pip and nothing more). The wheel holds the
package's Python files and the built libskyline.so ($SKYLINE_LIB, else build/ of the
repository, as the README's build leaves it); an editable install points at python/ and
loads the library from the repository's build/ as skyline/_lib.py does.
"""
import base64
import hashlib
import os
import re
import sysconfig
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))


def _project():
    """Name, version, summary and requires-python from pyproject.toml's [project]."""
    with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    section = re.search(r"^\[project\]\n(.*?)(?=^\[)", text, re.S | re.M).group(1)
    fields = dict(re.findall(r'^([a-z-]+) = "([^"]*)"', section, re.M))
    extras = re.search(r"^\[project\.optional-dependencies\]\n(.*?)(?=^\[|\Z)", text,
                       re.S | re.M)
    fields["extras"] = re.findall(r'^(\w+) = \["([^"]+)"\]', extras.group(1) if extras else "",
                                  re.M)
    return fields


def _metadata():
    p = _project()
    lines = ["Metadata-Version: 2.1", "Name: " + p["name"], "Version: " + p["version"],
             "Summary: " + p["description"], "Requires-Python: " + p["requires-python"]]
    for extra, req in p["extras"]:
        lines += ["Provides-Extra: " + extra, 'Requires-Dist: %s; extra == "%s"' % (req, extra)]
    return "\n".join(lines) + "\n"


def _library():
    src = os.environ.get("SKYLINE_LIB") or os.path.join(os.path.dirname(HERE), "build",
                                                        "libskyline.so")
    if not os.path.isfile(src):
        raise SystemExit("skyline: %s not found: build the library first (README) or set "
                         "SKYLINE_LIB" % src)
    return src


def _platform_tag():
    return re.sub(r"[^A-Za-z0-9]", "_", sysconfig.get_platform())


def _digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(
        b"=").decode()


def _write_wheel(directory, tag, files):
    """files: (path in the wheel, bytes) pairs; adds the dist-info and returns the name."""
    p = _project()
    dist = "%s-%s" % (p["name"], p["version"])
    name = "%s-%s.whl" % (dist, tag)
    info = dist + ".dist-info/"
    files = list(files) + [
        (info + "METADATA", _metadata().encode()),
        (info + "WHEEL", ("Wheel-Version: 1.0\nGenerator: skyline_build\n"
                          "Root-Is-Purelib: false\nTag: %s\n" % tag).encode()),
    ]
    record = "".join("%s,%s,%d\n" % (path, _digest(data), len(data)) for path, data in files)
    record += info + "RECORD,,\n"
    with zipfile.ZipFile(os.path.join(directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in files + [(info + "RECORD", record.encode())]:
            z.writestr(zipfile.ZipInfo(path, (2020, 1, 1, 0, 0, 0)), data)
    return name


def _package_files():
    pkg = os.path.join(HERE, "skyline")
    for entry in sorted(os.listdir(pkg)):
        if entry.endswith(".py"):
            with open(os.path.join(pkg, entry), "rb") as f:
                yield "skyline/" + entry, f.read()


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    with open(_library(), "rb") as f:
        lib = f.read()
    files = list(_package_files()) + [("skyline/libskyline.so", lib)]
    return _write_wheel(wheel_directory, "py3-none-" + _platform_tag(), files)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    pth = (HERE + "\n").encode()
    return _write_wheel(wheel_directory, "py3-none-any", [("skyline_editable.pth", pth)])
