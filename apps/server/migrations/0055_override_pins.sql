CREATE TABLE "override_pin_settings" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"validity_minutes" integer NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
CREATE TABLE "override_pins" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"pin_hash" text NOT NULL,
	"issued_at" timestamp (3) with time zone NOT NULL,
	"issued_by" uuid,
	"issued_by_name" text,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	"used_by" uuid,
	"entry_id" uuid,
	CONSTRAINT "override_pins_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "entry_logs" ADD COLUMN "trailer_licence_disc_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "entry_overrides" ADD COLUMN "entered_by" uuid;--> statement-breakpoint
ALTER TABLE "entry_overrides" ADD COLUMN "entered_by_name" text;--> statement-breakpoint
ALTER TABLE "override_pin_settings" ADD CONSTRAINT "override_pin_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "override_pins" ADD CONSTRAINT "override_pins_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "override_pins_one_unspent_per_value" ON "override_pins" USING btree ("tenant_id","pin_hash") WHERE "override_pins"."used_at" is null;--> statement-breakpoint
CREATE INDEX "override_pins_tenant_id_expires_at_idx" ON "override_pins" USING btree ("tenant_id","expires_at");