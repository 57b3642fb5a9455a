/**
 * The number inventory and the organizations' numbers (one table: a number is `available` without an
 * organization, then `active` and `released` with the one that ordered it), and demand requests.
 */
export const phoneNumbers: ReadonlyArray<string> = [
  `CREATE TABLE phone_numbers (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    number text NOT NULL,
    number_type text NOT NULL CHECK (number_type IN ('mobile', 'landline')),
    status text NOT NULL CHECK (status IN ('available', 'active', 'released')),
    organization_id bigint REFERENCES organizations (id),
    activated_at timestamptz,
    released_at timestamptz,
    created_at timestamptz NOT NULL,
    CHECK ((status = 'available') = (organization_id IS NULL))
  )`,
  // A number is in the inventory or held at most once; a released record does not block adding it again.
  `CREATE UNIQUE INDEX phone_numbers_number ON phone_numbers (number) WHERE status <> 'released'`,
  // Orderable numbers of a type, oldest first.
  `CREATE INDEX phone_numbers_available ON phone_numbers (number_type, id) WHERE status = 'available'`,
  // An organization's numbers by when it took them.
  `CREATE INDEX phone_numbers_by_organization
    ON phone_numbers (organization_id, (coalesce(activated_at, created_at)) DESC, id DESC)`,
  `CREATE TABLE number_requests (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    end_user_id bigint NOT NULL,
    consent boolean NOT NULL,
    note text NOT NULL,
    number_type text CHECK (number_type IN ('mobile', 'landline')),
    status text NOT NULL CHECK (status IN ('open', 'fulfilled', 'canceled')),
    created_at timestamptz NOT NULL
  )`,
  `CREATE INDEX number_requests_by_organization ON number_requests (organization_id, created_at DESC, id DESC)`
]
