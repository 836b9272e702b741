"""`python -m services.professor`: run the professor until SIGTERM."""

from services.common.service import main
from services.professor.app import run

if __name__ == "__main__":
    main("professor", run)
