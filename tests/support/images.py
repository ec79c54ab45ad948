"""Image files for test sites: real ones, since a build warns at an image it cannot read."""

from __future__ import annotations

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da"
    "63382127070002b601050a5ba6060000000049454e44ae426082"
)
"""A valid 1 × 1 PNG (one red pixel), 69 bytes: what a test site's `plot.png` holds."""
