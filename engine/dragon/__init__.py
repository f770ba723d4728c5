"""In the Year of the Dragon (Stefan Feld, 10th Anniversary edition) with both expansions."""
