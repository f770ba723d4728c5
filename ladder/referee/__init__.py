"""The referee's side of a game: the bot protocol, hosting bots in their own processes, and their sandbox."""
