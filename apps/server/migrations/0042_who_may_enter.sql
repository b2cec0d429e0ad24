CREATE TABLE "document_rule_settings" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"rules" jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
CREATE TABLE "entry_overrides" (
	"tenant_id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"overridden_at" timestamp (3) with time zone NOT NULL,
	"overridden_by" uuid,
	"overridden_by_name" text,
	CONSTRAINT "entry_overrides_tenant_id_entry_id_pk" PRIMARY KEY("tenant_id","entry_id")
);
--> statement-breakpoint
CREATE TABLE "watchlist_entries" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"match_key" text NOT NULL,
	"reason" text NOT NULL,
	"severity" text NOT NULL,
	"covert" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"created_by" uuid,
	"created_by_name" text,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "watchlist_entries_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "approved_vehicles" ADD COLUMN "trailers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "entry_logs" ADD COLUMN "trailer_plates" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "document_rule_settings" ADD CONSTRAINT "document_rule_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_overrides" ADD CONSTRAINT "entry_overrides_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_overrides" ADD CONSTRAINT "entry_overrides_tenant_id_entry_id_entry_logs_tenant_id_id_fk" FOREIGN KEY ("tenant_id","entry_id") REFERENCES "public"."entry_logs"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watchlist_entries" ADD CONSTRAINT "watchlist_entries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "watchlist_entries_match_idx" ON "watchlist_entries" USING btree ("tenant_id","kind","match_key");