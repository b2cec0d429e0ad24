-- Site nodes (issue 28, ADR 0009 "Outbox payloads re-sealed"): keys.reseal-node and the daily
-- site-node.prune-outbox-objects job run on the worker as the API role and re-write a fact's
-- payload (its sealed values sealed again with central's new data key; its objects' bytes replaced
-- by their digests once acknowledged and old). Only the payload column: a fact's id, stream, seq,
-- kind, times and acknowledgement stay out of the API role's reach, and it still deletes nothing.
GRANT UPDATE ("payload") ON "site_outbox" TO boomgate_app;
