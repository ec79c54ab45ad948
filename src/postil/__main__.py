"""Run postil as `python -m postil`."""

from postil.cli import entry

entry()
