"""Request parsing shared by every app (no models: not an installed app)."""
