"""Browser tests: Playwright driving Debian Chromium (see conftest.py)."""
