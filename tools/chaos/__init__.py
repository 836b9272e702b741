"""Fault scenarios, shared by the fault tests and ``eduanima bench chaos``.

- ``infra``: a private Kafka broker, PostgreSQL or GCS emulator (free ports, own directory),
  started by the same ``deploy.local`` code as ``eduanima up``, to kill and restart.
- ``fleet``: service processes (``python -m services.<name>``) with their health reports.
- ``sessions``: questions asked, their FINAL events watched, the topics audited.
- ``fake_gemini``: a local HTTP server that fails the way Gemini can.
- ``scenarios``: one function per fault; each returns what happened to the sessions in
  flight, the evidence that the fault landed, and how long the stages took to recover.
"""
