"""The person's table: a person playing against bots (`play`, stored by `human`), the game told
in words (`narrate`), hints from a search (`hints`) and what choices and board words mean
(`explain`)."""
