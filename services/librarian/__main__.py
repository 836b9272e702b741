"""`python -m services.librarian`: run the librarian until SIGTERM."""

from services.common.service import main
from services.librarian.app import run

if __name__ == "__main__":
    main("librarian", run)
