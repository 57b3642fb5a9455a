/** Uploads are refused above this many bytes (10 MiB). */
export const defaultMaxFileBytes = 10 * 1024 * 1024
