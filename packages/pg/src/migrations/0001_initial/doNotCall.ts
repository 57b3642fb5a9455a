/**
 * The Do not call list: one row per organization and E.164 number. Lists break ties of `created_at` by
 * number in code-unit order (COLLATE "C"), as the in-memory store does.
 */
export const doNotCall = [
  `CREATE TABLE do_not_call (
    organization_id bigint NOT NULL REFERENCES organizations (id),
    phone_number text COLLATE "C" NOT NULL,
    reason text,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (organization_id, phone_number)
  )`,
  `CREATE INDEX do_not_call_by_organization ON do_not_call (organization_id, created_at DESC, phone_number DESC)`
]
