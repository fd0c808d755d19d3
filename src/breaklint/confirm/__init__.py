"""The dynamic half: run Dynamo and Inductor on a user's model to confirm, fix and time graph breaks.

Nothing here is imported by `breaklint check`; modules that need torch import it inside functions
or at their own top, never from this package's __init__.
"""
