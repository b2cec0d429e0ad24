CREATE TABLE "guard_devices" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"device_key" uuid NOT NULL,
	"label" text,
	"last_user_id" uuid,
	"last_user_name" text,
	"first_seen_at" timestamp (3) with time zone NOT NULL,
	"last_contact_at" timestamp (3) with time zone NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	"revoked_by" uuid,
	"revoked_by_name" text,
	CONSTRAINT "guard_devices_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "offline_decisions" text DEFAULT 'grant' NOT NULL;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "exit_idempotency_key" text;--> statement-breakpoint
ALTER TABLE "guard_devices" ADD CONSTRAINT "guard_devices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "guard_devices_one_per_key" ON "guard_devices" USING btree ("tenant_id","device_key");--> statement-breakpoint
CREATE INDEX "guard_devices_by_contact_idx" ON "guard_devices" USING btree ("tenant_id","last_contact_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_offline_decisions_known" CHECK ("tenants"."offline_decisions" in ('grant', 'record_only'));