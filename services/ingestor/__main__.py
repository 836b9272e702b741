"""`python -m services.ingestor`: run the ingestor until SIGTERM."""

from services.common.service import main
from services.ingestor.app import run

if __name__ == "__main__":
    main("ingestor", run)
