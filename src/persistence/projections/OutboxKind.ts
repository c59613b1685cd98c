// The kinds of message the instance outbox carries (delivered by actors/OutboxRelay.ts after the commit).
export type OutboxKind =
  | "START_CHILD"
  | "CANCEL_CHILD"
  | "CHILD_COMPLETED"
  | "CHILD_ERROR"
  | "CHILD_ESCALATION"
  | "EVALUATE_DECISION"
  | "CORRELATE_MESSAGE"
  | "BROADCAST_SIGNAL"
