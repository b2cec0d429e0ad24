-- Issue 26i: a platform marker (no tenant_id, no tenant data, so no row-level security): the
-- worker's keys.seal-stored-data job reads it and records (upserts) its completed object walk.
-- No DELETE: only an operator (schema owner) removes the row to have storage walked again.
GRANT SELECT, INSERT, UPDATE ON "sealed_storage_walks" TO boomgate_app;
