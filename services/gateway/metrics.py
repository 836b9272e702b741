"""Prometheus metrics of the gateway (served on ``GET /metrics`` with the Kafka counters)."""

from prometheus_client import Counter, Gauge

QUESTIONS_ACCEPTED = Counter("eduanima_gateway_questions_total", "Questions accepted and published")
UPLOADS_ACCEPTED = Counter("eduanima_gateway_uploads_total", "Uploads stored and published")
UPLOADED_BYTES = Counter("eduanima_gateway_uploaded_bytes_total", "Bytes of accepted uploads")
AUTH_FAILURES = Counter("eduanima_gateway_auth_failures_total", "Requests refused with 401")
OPEN_STREAMS = Gauge("eduanima_gateway_open_streams", "SSE answer streams currently open")
