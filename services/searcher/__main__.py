"""`python -m services.searcher`: run the searcher until SIGTERM."""

from services.common.service import main
from services.searcher.app import run

if __name__ == "__main__":
    main("searcher", run)
