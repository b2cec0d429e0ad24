ALTER TYPE "public"."alert_kind" ADD VALUE 'site_stale_decision';--> statement-breakpoint
CREATE TABLE "site_node_tokens" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	"last_sync_at" timestamp (3) with time zone,
	"last_down_sync_at" timestamp (3) with time zone,
	"last_up_sync_at" timestamp (3) with time zone,
	CONSTRAINT "site_node_tokens_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "site_sync_events" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"gate_id" uuid,
	"stream" text NOT NULL,
	"seq" integer NOT NULL,
	"kind" text NOT NULL,
	"site_recorded_at" timestamp (3) with time zone NOT NULL,
	"central_received_at" timestamp (3) with time zone NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"flagged" boolean DEFAULT false NOT NULL,
	CONSTRAINT "site_sync_events_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "site_sync_signing_keys" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"public_key" text NOT NULL,
	"private_key_sealed" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_tombstones" (
	"version" bigint NOT NULL,
	"tenant_id" uuid NOT NULL,
	"table_name" text NOT NULL,
	"row_id" text NOT NULL,
	"match_key" text,
	"deleted_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "sync_tombstones_tenant_id_version_pk" PRIMARY KEY("tenant_id","version")
);
--> statement-breakpoint
ALTER TABLE "site_node_tokens" ADD CONSTRAINT "site_node_tokens_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_node_tokens" ADD CONSTRAINT "site_node_tokens_tenant_id_site_id_sites_tenant_id_id_fk" FOREIGN KEY ("tenant_id","site_id") REFERENCES "public"."sites"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_sync_events" ADD CONSTRAINT "site_sync_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_sync_events" ADD CONSTRAINT "site_sync_events_tenant_id_site_id_sites_tenant_id_id_fk" FOREIGN KEY ("tenant_id","site_id") REFERENCES "public"."sites"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_sync_signing_keys" ADD CONSTRAINT "site_sync_signing_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_node_tokens_tenant_site_idx" ON "site_node_tokens" USING btree ("tenant_id","site_id");--> statement-breakpoint
CREATE INDEX "site_node_tokens_token_hash_idx" ON "site_node_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "site_sync_events_stream_seq_unique" ON "site_sync_events" USING btree ("tenant_id","site_id","stream","seq");--> statement-breakpoint
CREATE INDEX "sync_tombstones_match_idx" ON "sync_tombstones" USING btree ("tenant_id","table_name","match_key") WHERE match_key is not null;