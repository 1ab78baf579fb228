"""Blueprints: one module per concern."""
