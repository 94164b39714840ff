/**
 * The error of a whole form or action (not of one field: Field shows those), announced to screen
 * readers as it appears (role="alert"); nothing when `error` is null, undefined or empty.
 */
export function FormError({ error }: { error: string | null | undefined }) {
  return error ? (
    <p className="field-error" role="alert">
      {error}
    </p>
  ) : null;
}
