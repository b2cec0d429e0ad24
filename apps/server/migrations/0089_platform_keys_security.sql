-- Issue 26: the platform's root key, wrapped by the master key, is read and (re-)wrapped only by
-- the schema owner at start-up (platform/root-key.ts). No grant to the API, auth or job roles;
-- row-level security as every table, its one policy for the owner's connection.
ALTER TABLE "platform_keys" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "platform_keys" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "owner_only" ON "platform_keys" FOR ALL USING (true) WITH CHECK (true);--> statement-breakpoint
REVOKE ALL ON "platform_keys" FROM PUBLIC;
