CREATE TYPE "public"."entry_category" AS ENUM('visitor', 'contracted');--> statement-breakpoint
CREATE TYPE "public"."truck_category" AS ENUM('contracted', 'other');--> statement-breakpoint
CREATE TABLE "approved_vehicles" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"plate_number" text NOT NULL,
	"driver_name" text NOT NULL,
	"driver_license" text,
	"company" text,
	"driver_photo_key" text,
	"photo_consent_at" timestamp with time zone,
	"photo_consent_by" uuid,
	"photo_consent_notice" text,
	"approved_until" date,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "approved_vehicles_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "drivers_licences" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"image_key" text,
	"fields" jsonb NOT NULL,
	"licence_number" text,
	"id_number" text,
	CONSTRAINT "drivers_licences_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "identity_documents" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"image_key" text,
	"fields" jsonb NOT NULL,
	"identity_number" text,
	CONSTRAINT "identity_documents_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "licence_discs" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"image_key" text,
	"fields" jsonb NOT NULL,
	"licence_number" text,
	"disc_number" text,
	"vehicle_register_no" text,
	CONSTRAINT "licence_discs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "passports" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"image_key" text,
	"fields" jsonb NOT NULL,
	"passport_number" text,
	CONSTRAINT "passports_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "weighbridge_tickets" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"image_key" text,
	"fields" jsonb NOT NULL,
	"ticket_number" text,
	"vehicle_reg" text,
	"tare_weight_kg" integer,
	"gross_weight_kg" integer,
	"net_weight_kg" integer,
	"weights_consistent" boolean,
	CONSTRAINT "weighbridge_tickets_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "entry_logs" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"category" "entry_category" DEFAULT 'visitor' NOT NULL,
	"plate_number" text NOT NULL,
	"extracted_plate" text,
	"vehicle_approved" boolean NOT NULL,
	"face_verified" boolean NOT NULL,
	"entry_granted" boolean NOT NULL,
	"match_score" real,
	"driver_name" text,
	"driver_surname" text,
	"driver_id_number" text,
	"driver_phone1" text,
	"driver_phone2" text,
	"driver_phone3" text,
	"driver_passport_number" text,
	"transport_name" text,
	"vehicle_licence_disc_id" uuid,
	"identity_document_id" uuid,
	"drivers_licence_id" uuid,
	"passport_record_id" uuid,
	"weighbridge_ticket_id" uuid,
	"plate_image_key" text,
	"vehicle_disk_image_key" text,
	"driver_face_image_key" text,
	"driver_license_image_key" text,
	"passport_image_key" text,
	"permit_image_keys" text[] DEFAULT '{}'::text[] NOT NULL,
	"warnings" text[] DEFAULT '{}'::text[] NOT NULL,
	"recorded_by" uuid,
	"recorded_by_name" text,
	"idempotency_key" text,
	"request_hash" text,
	CONSTRAINT "entry_logs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "truck_list_entries" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"truck_number" text,
	"plate_number" text NOT NULL,
	"category" "truck_category" NOT NULL,
	"transport_name" text,
	"image_key" text,
	"source" text,
	CONSTRAINT "truck_list_entries_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "approved_vehicles" ADD CONSTRAINT "approved_vehicles_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drivers_licences" ADD CONSTRAINT "drivers_licences_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_documents" ADD CONSTRAINT "identity_documents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_discs" ADD CONSTRAINT "licence_discs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passports" ADD CONSTRAINT "passports_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weighbridge_tickets" ADD CONSTRAINT "weighbridge_tickets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_logs" ADD CONSTRAINT "entry_logs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_logs" ADD CONSTRAINT "entry_logs_tenant_id_vehicle_licence_disc_id_licence_discs_tenant_id_id_fk" FOREIGN KEY ("tenant_id","vehicle_licence_disc_id") REFERENCES "public"."licence_discs"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_logs" ADD CONSTRAINT "entry_logs_tenant_id_identity_document_id_identity_documents_tenant_id_id_fk" FOREIGN KEY ("tenant_id","identity_document_id") REFERENCES "public"."identity_documents"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_logs" ADD CONSTRAINT "entry_logs_tenant_id_drivers_licence_id_drivers_licences_tenant_id_id_fk" FOREIGN KEY ("tenant_id","drivers_licence_id") REFERENCES "public"."drivers_licences"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_logs" ADD CONSTRAINT "entry_logs_tenant_id_passport_record_id_passports_tenant_id_id_fk" FOREIGN KEY ("tenant_id","passport_record_id") REFERENCES "public"."passports"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_logs" ADD CONSTRAINT "entry_logs_tenant_id_weighbridge_ticket_id_weighbridge_tickets_tenant_id_id_fk" FOREIGN KEY ("tenant_id","weighbridge_ticket_id") REFERENCES "public"."weighbridge_tickets"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "truck_list_entries" ADD CONSTRAINT "truck_list_entries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "approved_vehicles_one_per_plate" ON "approved_vehicles" USING btree ("tenant_id","plate_number");--> statement-breakpoint
CREATE INDEX "drivers_licences_tenant_id_number_idx" ON "drivers_licences" USING btree ("tenant_id","id_number");--> statement-breakpoint
CREATE INDEX "identity_documents_tenant_number_idx" ON "identity_documents" USING btree ("tenant_id","identity_number");--> statement-breakpoint
CREATE INDEX "licence_discs_tenant_licence_idx" ON "licence_discs" USING btree ("tenant_id","licence_number");--> statement-breakpoint
CREATE INDEX "passports_tenant_number_idx" ON "passports" USING btree ("tenant_id","passport_number");--> statement-breakpoint
CREATE INDEX "weighbridge_tickets_tenant_created_idx" ON "weighbridge_tickets" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "entry_logs_tenant_timestamp_idx" ON "entry_logs" USING btree ("tenant_id","timestamp" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "entry_logs_one_per_idempotency_key" ON "entry_logs" USING btree ("tenant_id","idempotency_key") WHERE idempotency_key is not null;--> statement-breakpoint
CREATE INDEX "entry_logs_tenant_disc_idx" ON "entry_logs" USING btree ("tenant_id","vehicle_licence_disc_id");--> statement-breakpoint
CREATE INDEX "entry_logs_tenant_identity_idx" ON "entry_logs" USING btree ("tenant_id","identity_document_id");--> statement-breakpoint
CREATE INDEX "entry_logs_tenant_licence_idx" ON "entry_logs" USING btree ("tenant_id","drivers_licence_id");--> statement-breakpoint
CREATE INDEX "entry_logs_tenant_passport_idx" ON "entry_logs" USING btree ("tenant_id","passport_record_id");--> statement-breakpoint
CREATE INDEX "entry_logs_tenant_ticket_idx" ON "entry_logs" USING btree ("tenant_id","weighbridge_ticket_id");--> statement-breakpoint
CREATE INDEX "truck_list_entries_tenant_timestamp_idx" ON "truck_list_entries" USING btree ("tenant_id","timestamp" DESC NULLS LAST);