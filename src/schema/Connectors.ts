// Connectors (types) and connections (configured endpoints) — SERVICE.md "Connectors and connections".
import { Schema } from "effect"
import { Authored, PageQueryFields } from "./Common.ts"

export const Connector = Schema.Struct({
  type: Schema.String,
  name: Schema.String,
  description: Schema.String,
  configFields: Schema.Array(
    Schema.Struct({ name: Schema.String, required: Schema.Boolean, secret: Schema.Boolean, description: Schema.String })
  ),
  taskHeaders: Schema.Array(
    Schema.Struct({ name: Schema.String, required: Schema.Boolean, description: Schema.String })
  ),
  inputVariables: Schema.Array(Schema.Struct({ name: Schema.String, description: Schema.String }))
}).annotate({ identifier: "Connector" })

const Config = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "the connector type's configFields"
})

export const Connection = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  connectorType: Schema.String,
  config: Config.annotate({ description: "secret fields read \"********\"" }),
  enabled: Schema.Boolean,
  ...Authored
}).annotate({ identifier: "Connection" })
export type Connection = typeof Connection.Type

export const CreateConnection = Schema.Struct({
  name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  connectorType: Schema.String.check(Schema.isMinLength(1)),
  config: Config,
  enabled: Schema.optional(Schema.Boolean).annotate({ description: "default true" })
}).annotate({ identifier: "CreateConnection" })

export const UpdateConnection = Schema.Struct({
  name: Schema.optional(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))),
  config: Schema.optional(Config).annotate({
    description: "replaces the configuration; a secret field sent as \"********\" keeps its saved value"
  })
}).annotate({ identifier: "UpdateConnection" })

export const ConnectionQuery = {
  ...PageQueryFields,
  connectorType: Schema.optional(Schema.String),
  enabled: Schema.optional(Schema.Literals(["true", "false"]))
}

export const ConnectionTest = Schema.Struct({
  connectionId: Schema.String,
  complete: Schema.Boolean,
  problems: Schema.Array(Schema.Struct({ field: Schema.String, message: Schema.String }))
}).annotate({
  identifier: "ConnectionTest",
  description: "whether the connection is completely configured for its type (no call is made)"
})
