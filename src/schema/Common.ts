// Shapes shared by every area: paging (ARCHITECTURE.md, Conventions: page 0-based, size default 20, max 1000).
import { Schema } from "effect"

export const DEFAULT_PAGE_SIZE = 20
export const MAX_PAGE_SIZE = 1000

export const PageQueryFields = {
  page: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))).annotate({
    description: "0-based page number (default 0)"
  }),
  size: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_PAGE_SIZE }))).annotate({
    description: `page size, 1..${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`
  })
}

export interface PageRequest {
  readonly page: number
  readonly size: number
}

export const pageRequest = (
  query: { readonly page?: number | undefined; readonly size?: number | undefined }
): PageRequest => ({
  page: query.page ?? 0,
  size: query.size ?? DEFAULT_PAGE_SIZE
})

export const Page = <S extends Schema.Top>(item: S) =>
  Schema.Struct({
    items: Schema.Array(item),
    page: Schema.Int,
    size: Schema.Int,
    totalItems: Schema.Int,
    totalPages: Schema.Int
  })

export interface PageOf<A> {
  readonly items: ReadonlyArray<A>
  readonly page: number
  readonly size: number
  readonly totalItems: number
  readonly totalPages: number
}

export const pageOf = <A>(items: ReadonlyArray<A>, request: PageRequest, totalItems: number): PageOf<A> => ({
  items,
  page: request.page,
  size: request.size,
  totalItems,
  totalPages: Math.ceil(totalItems / request.size)
})

export const IsoDateTime = Schema.String.annotate({ format: "date-time", description: "ISO 8601 date-time, UTC" })

/** When a resource was created and when it last changed: the last fields of most resources. */
export const Timestamps = { createdAt: IsoDateTime, updatedAt: IsoDateTime }

/** Who created a resource and when (a resource that never changes). */
export const Created = { createdBy: Schema.String, createdAt: IsoDateTime }

/** Who created a resource, when, and when it last changed. */
export const Authored = { ...Created, updatedAt: IsoDateTime }

export const Variables = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "variables as a JSON object"
})

/** The Idempotency-Key request header of the writes that can be retried safely (docs/api.md). */
export const IdempotencyHeaders = Schema.Struct({
  "idempotency-key": Schema.optional(
    Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(255)).annotate({
      description:
        "Makes a retry safe: a request with a key already used (within IDEMPOTENCY_RETENTION_HOURS, default 24 h) returns " +
        "the first answer and changes nothing; the same key with another body is 422; a request interrupted before its answer is " +
        "finished by its retry, never done twice"
    })
  )
}).annotate({ identifier: "IdempotencyHeaders" })
