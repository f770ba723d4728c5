"""`python -m ladder.cli`: the `tianti` command without its installed script."""
from ladder.cli import main

if __name__ == "__main__":
    main()
