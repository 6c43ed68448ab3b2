/** "true"/"false" query strings to booleans; anything else stays as given and fails IsBoolean. */
export const toBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);
