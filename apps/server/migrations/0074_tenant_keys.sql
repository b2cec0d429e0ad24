CREATE TABLE "tenant_keys" (
	"tenant_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"version" integer NOT NULL,
	"state" text NOT NULL,
	"wrapped_key" text,
	"master_key_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "tenant_keys_tenant_id_purpose_version_pk" PRIMARY KEY("tenant_id","purpose","version"),
	CONSTRAINT "tenant_keys_retired_shredded" CHECK (("tenant_keys"."state" = 'retired') = ("tenant_keys"."wrapped_key" is null))
);
--> statement-breakpoint
ALTER TABLE "tenant_keys" ADD CONSTRAINT "tenant_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tenant_keys_one_active" ON "tenant_keys" USING btree ("tenant_id","purpose") WHERE "tenant_keys"."state" = 'active';--> statement-breakpoint
CREATE INDEX "tenant_keys_master_key_idx" ON "tenant_keys" USING btree ("master_key_id");