// The shape most history events share: something happened to one token at one node. `Fields` are the event's own.
export type TokenEvent<Type extends string, Fields extends object = {}> =
  & { readonly type: Type; readonly tokenId: string; readonly nodeId: string }
  & Fields
