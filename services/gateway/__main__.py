"""`python -m services.gateway`: serve the HTTP API and web console until SIGTERM."""

from services.common.service import main
from services.gateway.app import run

if __name__ == "__main__":
    main("gateway", run)
