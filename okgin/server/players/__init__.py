"""Players: who a browser is (a guest from its first visit), its session, and the games it sat in."""
