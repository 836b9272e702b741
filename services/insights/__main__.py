"""`python -m services.insights`: run the insights service until SIGTERM."""

from services.insights.app import main

if __name__ == "__main__":
    main()
