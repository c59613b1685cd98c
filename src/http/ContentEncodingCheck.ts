// Request bodies are read as sent: the service decodes no content coding (gzip, br, ...). A body sent with one would
// otherwise be read as its compressed bytes and refused as invalid text or JSON, hiding the real cause; RFC 9110
// (15.5.16) answers it with 415 and an Accept-Encoding that names what the server takes.

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"])

/** The Content-Encoding of a request whose body the service cannot read; undefined for none or "identity". */
export const unsupportedContentEncoding = (method: string, encoding: string | undefined): string | undefined => {
  if (encoding === undefined || !BODY_METHODS.has(method)) return undefined
  const normalized = encoding.trim().toLowerCase()
  return normalized === "" || normalized === "identity" ? undefined : encoding
}
