#!/usr/bin/env python3
"""Checks SVG pictures as a user would see them: each file parses as XML with an <svg>
root 800 px wide, and rsvg-convert (Debian's librsvg2-bin) renders it to a PNG that is not
blank (many distinct byte values in its pixel data).

usage: svg_check.py FILE.svg...   exit 0 if all pass, 1 if one fails, 77 if rsvg-convert
is missing (outside CI: CI=true makes that a failure).
"""
import os
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib


def png_distinct_bytes(path):
    """Distinct byte values of a PNG's decompressed pixel data (IDAT chunks)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    return len(set(zlib.decompress(idat)))


def main(files):
    rsvg = shutil.which("rsvg-convert")
    if not rsvg:
        print("svg_check: rsvg-convert is missing (apt-get install librsvg2-bin)")
        return 1 if os.environ.get("CI") == "true" else 77
    bad = 0
    for f in files:
        try:
            root = ET.parse(f).getroot()
            if root.tag != "{http://www.w3.org/2000/svg}svg" or root.get("width") != "800":
                raise ValueError("root is not an <svg> 800 px wide")
            png = f + ".png"
            r = subprocess.run([rsvg, "-o", png, f], capture_output=True, text=True)
            if r.returncode != 0 or r.stderr.strip():
                raise ValueError("rsvg-convert: " + (r.stderr.strip() or "failed"))
            if png_distinct_bytes(png) < 16:
                raise ValueError("the rendered PNG is blank")
        except Exception as e:  # one line per failing file
            print(f"{f}: {e}")
            bad += 1
    print(f"svg_check: {len(files) - bad}/{len(files)} pictures ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
