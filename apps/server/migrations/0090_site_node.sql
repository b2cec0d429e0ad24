CREATE TABLE "site_node_state" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"site_id" uuid NOT NULL,
	"since_version" bigint DEFAULT 0 NOT NULL,
	"high_water" bigint DEFAULT 0 NOT NULL,
	"last_down_sync_at" timestamp (3) with time zone,
	"last_up_sync_at" timestamp (3) with time zone,
	"last_error" text,
	"last_error_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "site_outbox" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"gate_id" uuid,
	"stream" text NOT NULL,
	"seq" integer NOT NULL,
	"kind" text NOT NULL,
	"site_recorded_at" timestamp (3) with time zone NOT NULL,
	"payload" jsonb NOT NULL,
	"acknowledged_at" timestamp (3) with time zone,
	CONSTRAINT "site_outbox_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "site_outbox_streams" (
	"tenant_id" uuid NOT NULL,
	"stream" text NOT NULL,
	"last_seq" integer NOT NULL,
	CONSTRAINT "site_outbox_streams_tenant_id_stream_pk" PRIMARY KEY("tenant_id","stream")
);
--> statement-breakpoint
ALTER TABLE "site_outbox" ADD CONSTRAINT "site_outbox_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_outbox_streams" ADD CONSTRAINT "site_outbox_streams_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "site_outbox_stream_seq" ON "site_outbox" USING btree ("tenant_id","stream","seq");--> statement-breakpoint
CREATE INDEX "site_outbox_pending_idx" ON "site_outbox" USING btree ("tenant_id","stream","seq") WHERE acknowledged_at is null;