CREATE TABLE "face_comparisons" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"compared_at" timestamp (3) with time zone NOT NULL,
	"compared_by" uuid,
	"approved_vehicle_id" uuid,
	"driver_id" uuid,
	"reference" text NOT NULL,
	"match_score" real NOT NULL,
	"decision" text NOT NULL,
	"liveness" real,
	"antispoof_gating" boolean NOT NULL,
	"antispoof_threshold" real NOT NULL,
	"antispoof_passed" boolean,
	"used_by_entry_id" uuid,
	CONSTRAINT "face_comparisons_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "face_comparisons_decision_known" CHECK ("face_comparisons"."decision" in ('match', 'no_match', 'spoof_suspected')),
	CONSTRAINT "face_comparisons_reference_known" CHECK ("face_comparisons"."reference" in ('descriptor', 'photo', 'image'))
);
--> statement-breakpoint
-- Hand-edited: entry warnings become typed (EntryWarning in packages/contracts/src/entry-checks.ts).
-- Each earlier text warning becomes a guard_note, except the server's own vehicle-claim message.
-- A USING expression may not hold a subquery, so a session-local function converts the array.
CREATE FUNCTION pg_temp.entry_warnings_to_jsonb(notes text[]) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'code', case when note = 'The client reported the vehicle as approved; the register does not.'
                        then 'vehicle_claim_contradicted' else 'guard_note' end,
           'severity', 'warning', 'message', note, 'fields', '[]'::jsonb) order by position), '[]'::jsonb)
  from unnest(notes) with ordinality as n(note, position)
$$;--> statement-breakpoint
ALTER TABLE "entry_logs" ALTER COLUMN "warnings" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "entry_logs" ALTER COLUMN "warnings" SET DATA TYPE jsonb USING pg_temp.entry_warnings_to_jsonb("warnings");--> statement-breakpoint
ALTER TABLE "entry_logs" ALTER COLUMN "warnings" SET DEFAULT '[]'::jsonb;--> statement-breakpoint
DROP FUNCTION pg_temp.entry_warnings_to_jsonb(text[]);--> statement-breakpoint
ALTER TABLE "entry_log_daily_counts" ADD COLUMN "granted" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "entry_logs" ADD COLUMN "refusal_reason" text;--> statement-breakpoint
ALTER TABLE "face_comparisons" ADD CONSTRAINT "face_comparisons_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "face_comparisons_one_entry_each" ON "face_comparisons" USING btree ("tenant_id","used_by_entry_id");--> statement-breakpoint
CREATE INDEX "face_comparisons_tenant_compared_idx" ON "face_comparisons" USING btree ("tenant_id","compared_at");