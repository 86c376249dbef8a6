"""Executing commands: each family's rules, as pure functions from a state to a new state and an
outcome."""
