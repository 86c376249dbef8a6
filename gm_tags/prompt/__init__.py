"""The text blocks the model reads. Each section is a pure function of the game as it stands."""
