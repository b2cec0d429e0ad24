ALTER TABLE "tenants" ADD COLUMN "biometric_retention_days" integer;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "document_retention_days" integer;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "induction_validity_days" integer DEFAULT 365 NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "antispoof_gating" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "antispoof_threshold" real DEFAULT 0.5 NOT NULL;