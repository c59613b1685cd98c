// Ids of the core: derived from the instance id and a discriminator, so the same commands give the same ids.
import { hash } from "node:crypto"

/** A name-based UUID (version 8 layout) from the instance id and a discriminator: deterministic and unique. */
export const derivedId = (instanceId: string, discriminator: string): string => {
  // One-shot hash: a third of createHash's cost (no Hash object); ~10 ids per instance.
  const hex = hash("sha256", `${instanceId}/${discriminator}`, "hex")
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${
    hex.slice(20, 32)
  }`
}
