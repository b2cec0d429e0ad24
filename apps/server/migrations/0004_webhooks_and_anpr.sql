CREATE TYPE "public"."webhook_delivery_status" AS ENUM('pending', 'delivered', 'failed');--> statement-breakpoint
CREATE TABLE "anpr_cameras" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"last_seen_at" timestamp with time zone,
	CONSTRAINT "anpr_cameras_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "incoming_requests" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"webhook_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"plate_number" text,
	"driver_name" text,
	"driver_surname" text,
	"driver_id_number" text,
	"driver_phone1" text,
	"transport_name" text,
	"reference_number" text,
	"weighbridge_ticket_id" text,
	"extracted_disk_data" text,
	"driver_license_number" text,
	"driver_license_valid_to" text,
	"driver_date_of_birth" text,
	"driver_sex" text,
	"completed_at" timestamp with time zone,
	"completed_by" uuid,
	CONSTRAINT "incoming_requests_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"webhook_id" text NOT NULL,
	"event_type" text NOT NULL,
	"body" text NOT NULL,
	"incoming_request_id" uuid,
	"status" "webhook_delivery_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_response_status" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "webhook_deliveries_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_integrations" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"secret_ciphertext" text,
	"secret_created_at" timestamp with time zone,
	"previous_secret_ciphertext" text,
	"previous_secret_expires_at" timestamp with time zone,
	"callback_url" text,
	"callback_disabled_at" timestamp with time zone,
	"callback_disabled_reason" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "anpr_cameras" ADD CONSTRAINT "anpr_cameras_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incoming_requests" ADD CONSTRAINT "incoming_requests_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_incoming_request_fk" FOREIGN KEY ("tenant_id","incoming_request_id") REFERENCES "public"."incoming_requests"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_integrations" ADD CONSTRAINT "webhook_integrations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "anpr_cameras_token_hash_idx" ON "anpr_cameras" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "incoming_requests_one_per_webhook_id" ON "incoming_requests" USING btree ("tenant_id","webhook_id");--> statement-breakpoint
CREATE INDEX "incoming_requests_tenant_timestamp_idx" ON "incoming_requests" USING btree ("tenant_id","timestamp" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_tenant_created_idx" ON "webhook_deliveries" USING btree ("tenant_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_tenant_incoming_request_idx" ON "webhook_deliveries" USING btree ("tenant_id","incoming_request_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';