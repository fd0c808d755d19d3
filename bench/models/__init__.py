"""Model specs for bench/realworld.py: one module per library.

Each module names LIBRARY, PACKAGES (import names whose folders are the library source),
DISTRIBUTIONS (for versions), ENV (which benchmark venv runs it), MODELS (names, known
without importing the library) and build(name) -> (module, args, kwargs).
The library is imported only inside build(), in the child process.
"""
