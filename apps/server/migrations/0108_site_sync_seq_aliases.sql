CREATE TABLE "site_sync_seq_aliases" (
	"tenant_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"stream" text NOT NULL,
	"seq" integer NOT NULL,
	"event_id" uuid NOT NULL,
	"recorded_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "site_sync_seq_aliases_tenant_id_site_id_stream_seq_pk" PRIMARY KEY("tenant_id","site_id","stream","seq")
);
--> statement-breakpoint
ALTER TABLE "site_sync_seq_aliases" ADD CONSTRAINT "site_sync_seq_aliases_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_sync_seq_aliases" ADD CONSTRAINT "site_sync_seq_aliases_tenant_id_site_id_sites_tenant_id_id_fk" FOREIGN KEY ("tenant_id","site_id") REFERENCES "public"."sites"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_sync_seq_aliases" ADD CONSTRAINT "site_sync_seq_aliases_tenant_id_event_id_site_sync_events_tenant_id_id_fk" FOREIGN KEY ("tenant_id","event_id") REFERENCES "public"."site_sync_events"("tenant_id","id") ON DELETE no action ON UPDATE no action;