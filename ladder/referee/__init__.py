"""The referee's reach beyond its process: the bot protocol (`protocol`), bots in processes of
their own (`host`) in their sandbox (`sandbox`), the adapter that serves a tianti or Python bot
over the protocol (`adapter`), and the specs that name them (`players`)."""
