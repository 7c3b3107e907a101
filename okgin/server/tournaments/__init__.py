"""Tournaments over rooms: their settings, their rounds paired and played at tables that are rooms."""
