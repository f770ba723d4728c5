"""A tournament: its plan (`schedule`, `roster`), running it (`runner`) on local workers or Ray
(`backends`, `worker`), the SQLite store (`store`), ratings from the stored games (`ratings`,
`trueskill_ffa`, `trueskill_c`) and the statistics that read them (`stats`, `sprt`)."""
