"""Live rooms: the room model, changes and frames, computer players, presence, the broker."""
