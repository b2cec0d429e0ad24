CREATE TABLE "captures" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"created_by" uuid,
	"type" text NOT NULL,
	"image_key" text NOT NULL,
	"reading" jsonb,
	"citations" integer DEFAULT 0 NOT NULL,
	"cited_at" timestamp (3) with time zone,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "captures_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "captures" ADD CONSTRAINT "captures_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "captures_tenant_image_key_idx" ON "captures" USING btree ("tenant_id","image_key");--> statement-breakpoint
CREATE INDEX "captures_uncited_expiry_idx" ON "captures" USING btree ("expires_at") WHERE citations = 0;