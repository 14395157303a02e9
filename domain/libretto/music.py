"""Helpers the libretto calls (see perform.py). Keep this small: prefer the templates."""

from __future__ import annotations
