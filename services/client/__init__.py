"""Helpers for clients of the public gRPC API (the command line, the AI workers, tests):
reading a match's event stream so far, and every legal action across pages."""
