"""Tests of the computer players (issue 5)."""
