-- Rate-limit counters are not tenant data (keys are accounts, addresses and routes), so no RLS:
-- like auth_throttle before them (0001), the API role reads and writes them directly.
GRANT SELECT, INSERT, UPDATE, DELETE ON "rate_limit_counters" TO boomgate_app;
