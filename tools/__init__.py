"""Maintainer tools, run from a clone of the repository (``python -m tools.catalogs``); not
part of the installed package, and never imported by it."""
