"""Pure libraries shared by every service: the engine contract, the game engines,
hex geometry and the fair-dice arithmetic. Nothing under here does I/O."""
