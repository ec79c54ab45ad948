"""Helpers shared by postil's tests: a local HTTP server, validators, the build command."""
