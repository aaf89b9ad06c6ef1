"""Real client libraries against librdkafka's mock cluster: the recorder of the client-log corpus
(``python -m tests.clients.record``) and its scoring test (docs/client-logs.md)."""
