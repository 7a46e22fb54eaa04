"""Oklahoma Gin rules engine (being written; see docs/architecture.md)."""
