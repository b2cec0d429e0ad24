CREATE TABLE "drivers" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"id_number" text NOT NULL,
	"name" text NOT NULL,
	"surname" text NOT NULL,
	"phone" text,
	"licence_number" text,
	"licence_valid_to" date,
	"transport_company" text,
	"photo_key" text,
	"licence_image_key" text,
	"photo_consent_at" timestamp with time zone,
	"photo_consent_by" uuid,
	"photo_consent_notice" text,
	"biometrics_purge_after" timestamp with time zone,
	"liveness_confidence" real,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "drivers_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "drivers_source_known" CHECK ("drivers"."source" in ('bulk', 'individual', 'self'))
);
--> statement-breakpoint
ALTER TABLE "drivers" ADD CONSTRAINT "drivers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "drivers_one_per_id_number" ON "drivers" USING btree ("tenant_id","id_number");--> statement-breakpoint
CREATE INDEX "drivers_tenant_created_idx" ON "drivers" USING btree ("tenant_id","created_at");