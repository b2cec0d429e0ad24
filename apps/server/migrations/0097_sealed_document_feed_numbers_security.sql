-- Issue 26: identity documents, driving licences and passports keep their ID/passport number
-- sealed (sv1.…) with its keyed hash beside it, and their `fields` (the numbers again, a passport's
-- MRZ) as sealed JSON text; the incoming feed keeps the driver's ID number sealed with its hash.
-- The documents are erase-only (0016): their trigger now runs 0093's rule, which lets exactly the
-- change sealing makes through (plain → sealed once, an older key → a newer one, a hash added once
-- beside its number), so keys.seal-stored-data (audited as storage.data_sealed) and keys.reseal
-- can write without lifting the trigger for anyone. `fields=` is a sealed column with no hash.
DROP TRIGGER identity_documents_erase_only ON "identity_documents";--> statement-breakpoint
CREATE TRIGGER identity_documents_erase_only BEFORE UPDATE ON "identity_documents" FOR EACH ROW
  EXECUTE FUNCTION refuse_change_except_erasure_or_sealing('image_key',
    'identity_number=identity_number_hash', 'fields=');--> statement-breakpoint
DROP TRIGGER drivers_licences_erase_only ON "drivers_licences";--> statement-breakpoint
CREATE TRIGGER drivers_licences_erase_only BEFORE UPDATE ON "drivers_licences" FOR EACH ROW
  EXECUTE FUNCTION refuse_change_except_erasure_or_sealing('image_key', 'licence_number',
    'id_number=id_number_hash', 'fields=');--> statement-breakpoint
DROP TRIGGER passports_erase_only ON "passports";--> statement-breakpoint
CREATE TRIGGER passports_erase_only BEFORE UPDATE ON "passports" FOR EACH ROW
  EXECUTE FUNCTION refuse_change_except_erasure_or_sealing('image_key',
    'passport_number=passport_number_hash', 'fields=');--> statement-breakpoint
GRANT UPDATE ("identity_number_hash") ON "identity_documents" TO boomgate_app;--> statement-breakpoint
GRANT UPDATE ("id_number_hash") ON "drivers_licences" TO boomgate_app;--> statement-breakpoint
GRANT UPDATE ("passport_number_hash") ON "passports" TO boomgate_app;--> statement-breakpoint
-- The sealing job finds the tenants with rows stored before sealing through these lookups (tenant
-- ids only), over the partial indexes <table>_unsealed_idx (empty once the job has run). The jobs
-- role already reads these tables under its retention/alerts policies (0016, 0039).
GRANT SELECT ("identity_number", "identity_number_hash", "fields") ON "identity_documents" TO boomgate_jobs;--> statement-breakpoint
GRANT SELECT ("id_number", "id_number_hash", "fields") ON "drivers_licences" TO boomgate_jobs;--> statement-breakpoint
GRANT SELECT ("passport_number", "passport_number_hash", "fields") ON "passports" TO boomgate_jobs;--> statement-breakpoint
GRANT SELECT ("driver_id_number", "driver_id_number_hash") ON "incoming_requests" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION identity_documents_unsealed_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct d.tenant_id from identity_documents d
  where (d.identity_number is not null
         and (d.identity_number_hash is null or d.identity_number not like 'sv1.%'))
     or (d.fields is not null and d.fields not like 'sv1.%')
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION identity_documents_unsealed_tenants(integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION identity_documents_unsealed_tenants(integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION identity_documents_unsealed_tenants(integer) TO boomgate_app;--> statement-breakpoint
CREATE FUNCTION drivers_licences_unsealed_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct d.tenant_id from drivers_licences d
  where (d.id_number is not null and (d.id_number_hash is null or d.id_number not like 'sv1.%'))
     or (d.fields is not null and d.fields not like 'sv1.%')
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION drivers_licences_unsealed_tenants(integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION drivers_licences_unsealed_tenants(integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION drivers_licences_unsealed_tenants(integer) TO boomgate_app;--> statement-breakpoint
CREATE FUNCTION passports_unsealed_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct d.tenant_id from passports d
  where (d.passport_number is not null
         and (d.passport_number_hash is null or d.passport_number not like 'sv1.%'))
     or (d.fields is not null and d.fields not like 'sv1.%')
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION passports_unsealed_tenants(integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION passports_unsealed_tenants(integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION passports_unsealed_tenants(integer) TO boomgate_app;--> statement-breakpoint
CREATE FUNCTION incoming_requests_unsealed_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct r.tenant_id from incoming_requests r
  where r.driver_id_number is not null
    and (r.driver_id_number_hash is null or r.driver_id_number not like 'sv1.%')
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION incoming_requests_unsealed_tenants(integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION incoming_requests_unsealed_tenants(integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION incoming_requests_unsealed_tenants(integer) TO boomgate_app;--> statement-breakpoint
-- The signed incoming webhook stores the ID number sealed with its keyed hash: 0073's function
-- with p_driver_id_number_hash after the number (the server seals; the key is not in the database).
DROP FUNCTION incoming_request_receive(uuid, uuid, text, timestamptz, timestamptz, text, text, text, text, text, text, text, text, text, uuid);--> statement-breakpoint
CREATE FUNCTION incoming_request_receive(
  p_tenant_id uuid, p_id uuid, p_webhook_id text, p_received_at timestamptz, p_timestamp timestamptz,
  p_plate_number text, p_driver_name text, p_driver_surname text, p_driver_id_number text,
  p_driver_id_number_hash text, p_driver_phone1 text, p_transport_name text,
  p_reference_number text, p_weighbridge_ticket_id text, p_extracted_disk_data text, p_site_id uuid
)
RETURNS TABLE (id uuid, duplicate boolean)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER SET search_path = public, pg_temp AS $$
DECLARE
  v_current text := nullif(current_setting('app.tenant_id', true), '');
  v_id uuid;
BEGIN
  IF v_current IS NOT NULL AND v_current <> p_tenant_id::text THEN
    RAISE EXCEPTION 'incoming_request_receive called inside another tenant''s transaction';
  END IF;
  PERFORM set_config('app.tenant_id', p_tenant_id::text, true);
  INSERT INTO incoming_requests AS r (
    tenant_id, id, webhook_id, received_at, "timestamp", plate_number, driver_name, driver_surname,
    driver_id_number, driver_id_number_hash, driver_phone1, transport_name, reference_number,
    weighbridge_ticket_id, extracted_disk_data, site_id
  ) VALUES (
    p_tenant_id, p_id, p_webhook_id, p_received_at, p_timestamp, p_plate_number, p_driver_name,
    p_driver_surname, p_driver_id_number, p_driver_id_number_hash, p_driver_phone1,
    p_transport_name, p_reference_number, p_weighbridge_ticket_id, p_extracted_disk_data, p_site_id
  )
  ON CONFLICT (tenant_id, webhook_id) DO NOTHING
  RETURNING r.id INTO v_id;
  IF v_id IS NOT NULL THEN
    RETURN QUERY SELECT v_id, false;
  ELSE
    -- A redelivery: under READ COMMITTED this statement sees the row the first delivery committed.
    RETURN QUERY SELECT r.id, true FROM incoming_requests r
      WHERE r.tenant_id = p_tenant_id AND r.webhook_id = p_webhook_id;
  END IF;
END
$$;--> statement-breakpoint
REVOKE ALL ON FUNCTION incoming_request_receive(uuid, uuid, text, timestamptz, timestamptz, text, text, text, text, text, text, text, text, text, text, uuid) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION incoming_request_receive(uuid, uuid, text, timestamptz, timestamptz, text, text, text, text, text, text, text, text, text, text, uuid) TO boomgate_app;
